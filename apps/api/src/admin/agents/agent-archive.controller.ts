import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { InUseError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import { agentDto, agentSelect } from './agent.dto';
import { Answers } from '../../docs/answer.decorator';
import { agentRecord, type AgentRecord } from './agent.answers';

/**
 * Archiving keeps an agent's versions, sessions and turns (deleting would need them gone) but
 * takes it out of use: lists hide it, no channel may point at it, the worker refuses to run it.
 * Refused while a channel still uses it, naming those channels so the tenant can move them.
 */
@ApiTags('console admin')
@Controller('v1/admin/agents')
@UseGuards(AdminAuthGuard)
export class AgentArchiveController {
  constructor(private readonly prisma: PrismaService) {}

  @Post(':id/archive')
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Archive an agent no channel uses (409 agent-in-use with details.channels [{id, name}] otherwise)' })
  @ApiResponse({ status: 409, description: '`agent-in-use`: channels still use the agent; `details.channels` lists them.' })
  @Answers({ status: 200, description: 'The agent, archived (already archived: unchanged).', schema: agentRecord })
  archive(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AgentRecord> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      if (before.archivedAt) return before;
      // FOR UPDATE on the agent: a channel created for it concurrently waits, then sees it archived.
      await tx.$queryRaw`SELECT 1 FROM "Agent" WHERE id = ${id}::uuid FOR UPDATE`;
      const channels = await tx.channel.findMany({ where: { agentId: id }, select: { id: true, name: true, kind: true }, orderBy: { name: 'asc' } });
      if (channels.length > 0) {
        const names = channels.map((c) => `"${c.name}"`).join(', ');
        throw new InUseError('agent-in-use', `The agent is used by ${channels.length} channel(s): ${names}. Point them at another agent or delete them, then archive.`, { channels });
      }
      const after = agentDto(await tx.agent.update({ where: { id }, data: { archivedAt: new Date() }, select: agentSelect }));
      await recordAudit(tx, user, { action: 'agent.archive', entityType: 'agent', entityId: id, tenantId: after.tenantId, before, after });
      return after;
    });
  }

  @Post(':id/unarchive')
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Bring an archived agent back into lists and use' })
  @Answers({ status: 200, description: 'The agent, back in use (not archived: unchanged).', schema: agentRecord })
  unarchive(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AgentRecord> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      if (!before.archivedAt) return before;
      const after = agentDto(await tx.agent.update({ where: { id }, data: { archivedAt: null }, select: agentSelect }));
      await recordAudit(tx, user, { action: 'agent.unarchive', entityType: 'agent', entityId: id, tenantId: after.tenantId, before, after });
      return after;
    });
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient) {
    const row = isUuid(id) ? await db.agent.findFirst({ where: { id, ...tenantScope(user) }, select: agentSelect }) : null;
    if (!row) throw new ResourceNotFoundError('agent', id);
    return agentDto(row);
  }
}
