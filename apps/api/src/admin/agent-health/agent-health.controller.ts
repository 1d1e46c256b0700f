import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { agentsListSpec } from '../agents/agent.dto';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { listReply } from '../common/list-reply';
import { isUuid } from '../list-query/filters';
import { parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { agentHealth, type AgentHealthDto } from './agent-health.query';
import { Answers } from '../../docs/answer.decorator';
import { agentHealthRecord } from './agent-health.query';
import { z } from 'zod';

const healthListSpec = { ...agentsListSpec, resource: 'agent-health' };

/**
 * Each agent's health from its recent turns: the share failed or deferred in the last hour and
 * the last failure. A resource of its own (keyed by agent id) so the agents list reads it for
 * the rows on screen with one getMany, and the agent's draft reads stay free of Turn scans.
 */
@ApiTags('console admin')
@Controller('v1/admin/agent-health')
@UseGuards(AdminAuthGuard)
export class AgentHealthController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({
    summary:
      'Health of agents (the same filters, sort and range as /agents; getMany sends filter {"id":[...]}): turns, failed, deferred and failingShare over the last hour, status, lastFailure',
  })
  @Answers({ status: 200, description: 'One page of agents\' health; the total is in Content-Range.', schema: z.array(agentHealthRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentHealthDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, healthListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, async (tx) => {
      const [agents, count] = await Promise.all([
        tx.agent.findMany({ where: scoped, orderBy, skip, take, select: { id: true } }),
        tx.agent.count({ where: scoped }),
      ]);
      const health = await agentHealth(tx, agents.map((a) => a.id));
      return [agents.map((a) => health.get(a.id)).filter((h): h is AgentHealthDto => h !== undefined), count] as const;
    });
    return listReply(reply, 'agent-health', skip, rows, total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: "One agent's health (404 for an agent of another tenant)" })
  @Answers({ status: 200, description: 'The agent\'s health.', schema: agentHealthRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AgentHealthDto> {
    const health = isUuid(id)
      ? await adminTransaction(this.prisma, user, async (tx) => {
          const agent = await tx.agent.findFirst({ where: { id, ...tenantScope(user) }, select: { id: true } });
          return agent ? (await agentHealth(tx, [agent.id])).get(agent.id) : undefined;
        })
      : undefined;
    if (!health) throw new ResourceNotFoundError('agent', id);
    return health;
  }
}
