import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ALL_ROLES, Roles } from '../auth/roles.decorator';
import { tenantScope } from '../tenant-scope';

const count = z.number().int().min(0);

/** The dashboard's numbers (the OpenAPI document's schema of the answer). */
export const adminStats = z.object({
  sessions: count,
  activeSessions: count,
  messages: count,
  queuedMessages: count,
  turns: count,
  llmCalls: count,
});
export type AdminStats = z.infer<typeof adminStats>;

/** The headline numbers of the console's dashboard, for the user's tenant (or all, for platform admins). */
@ApiTags('console admin')
@Controller('v1/admin/stats')
@UseGuards(AdminAuthGuard)
export class StatsController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...ALL_ROLES)
  @ApiOperation({ summary: 'Headline counts for the console dashboard' })
  @Answers({ status: 200, description: 'Counts for the user\'s tenant (every tenant, for a platform admin without a pick).', schema: adminStats })
  async get(@CurrentUser() user: AdminUser): Promise<AdminStats> {
    const scope = tenantScope(user);
    const [sessions, activeSessions, messages, queuedMessages, turns] = await this.prisma.$transaction([
      this.prisma.session.count({ where: scope }),
      this.prisma.session.count({ where: { ...scope, status: 'active' } }),
      this.prisma.message.count({ where: scope }),
      // Only inbound messages are ever queued; said so, the count reads the partial queued index.
      this.prisma.message.count({ where: { ...scope, direction: 'inbound', status: 'queued' } }),
      // From the daily roll-up (one row per agent, day and slot), not by counting Turn rows.
      this.prisma.usageDaily.aggregate({ where: scope, _sum: { turns: true, llmCalls: true } }),
    ]);
    return {
      sessions,
      activeSessions,
      messages,
      queuedMessages,
      turns: turns._sum.turns ?? 0,
      llmCalls: Number(turns._sum.llmCalls ?? 0n),
    };
  }
}
