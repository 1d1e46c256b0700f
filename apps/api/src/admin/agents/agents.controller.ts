import { withFallbackMessage } from '@switchboard/agent-config';
import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { InUseError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { listReply } from '../common/list-reply';
import { targetTenant } from '../common/tenant-target';
import { isUuid } from '../list-query/filters';
import { parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { assertCredentialOfTenant } from './agent-references';
import {
  agentDto,
  agentSelect,
  ARCHIVED_HIDDEN,
  showsArchived,
  agentsListSpec,
  createAgentBody,
  EMPTY_AGENT_CONFIG,
  updateAgentBody,
  type CreateAgentBody,
  type UpdateAgentBody,
} from './agent.dto';
import { PublishAgent, type PublishResult } from './publish-agent.usecase';
import { publishBody, restoreBody, RestoreVersion, type PublishBody, type RestoreBody } from './restore-version.usecase';
import { withDraftState } from './draft-state';
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { agentRecord, agentWithDraftState, publishAnswer, restoreAnswer, validateAnswer, type AgentRecord, type AgentWithDraftState } from './agent.answers';

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** Agents and their draft config (fields, flows as FlowSpec, tool allow-list, provider...). */
@ApiTags('console admin')
@Controller('v1/admin/agents')
@UseGuards(AdminAuthGuard)
export class AgentsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly publishAgent: PublishAgent,
    private readonly restoreVersion: RestoreVersion,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Agents, simple-REST (sort, range, filter {q, id, tenantId}); total in Content-Range' })
  @Answers({ status: 200, description: 'One page of agents; the total is in Content-Range.', schema: z.array(agentWithDraftState) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentWithDraftState[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, agentsListSpec);
    const scoped = { AND: [tenantScope(user), ...where, ...(showsArchived(where) ? [] : [ARCHIVED_HIDDEN])] };
    const [rows, total] = await adminTransaction(this.prisma, user, async (tx) => {
      const [page, count] = await Promise.all([tx.agent.findMany({ where: scoped, orderBy, skip, take, select: agentSelect }), tx.agent.count({ where: scoped })]);
      return [(await withDraftState(tx, page)).map(agentDto), count] as const;
    });
    return listReply(reply, 'agents', skip, rows, total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One agent with its draft config' })
  @Answers({ status: 200, description: 'The agent with its draft config.', schema: agentWithDraftState })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AgentWithDraftState> {
    return adminTransaction(this.prisma, user, async (tx) => agentDto((await withDraftState(tx, [await this.find(user, id, tx)]))[0]));
  }

  @Post()
  @ApiResponse({ status: 422, description: "`flow-configuration`: the configuration's flows do not load (details name the JSON path and the engine's code)." })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Create an agent (draft config checked against the AgentConfig schema)' })
  @Answers({ status: 201, description: 'The new agent (a draft, not published).', schema: agentRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createAgentBody)) body: CreateAgentBody): Promise<AgentRecord> {
    const tenantId = targetTenant(user, body.tenantId);
    return adminTransaction(this.prisma, user, async (tx) => {
      await assertCredentialOfTenant(tx, tenantId, body.config, ['config']);
      const agent = await tx.agent.create({
        // Every agent has a fallback message: the default in the agent's language until the tenant edits it.
        data: { tenantId, name: body.name, config: json(withFallbackMessage(body.config ?? EMPTY_AGENT_CONFIG)), monthlyBudgetMicros: body.monthlyBudget ?? null },
        select: agentSelect,
      }).then(agentDto);
      await recordAudit(tx, user, { action: 'agent.create', entityType: 'agent', entityId: agent.id, tenantId, after: agent });
      return agent;
    });
  }

  @Put(':id')
  @ApiResponse({ status: 422, description: "`flow-configuration`: the configuration's flows do not load (details name the JSON path and the engine's code)." })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Edit an agent: name and/or draft config (publish to make it live)' })
  @Answers({ status: 200, description: 'The saved agent.', schema: agentWithDraftState })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updateAgentBody)) body: UpdateAgentBody): Promise<AgentWithDraftState> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = agentDto(await this.find(user, id, tx));
      await assertCredentialOfTenant(tx, before.tenantId, body.config, ['config']);
      const agent = agentDto(
        await tx.agent.update({
          where: { id },
          data: {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.config !== undefined && { config: json(withFallbackMessage(body.config)) }),
            ...(body.monthlyBudget !== undefined && { monthlyBudgetMicros: body.monthlyBudget }),
          },
          select: agentSelect,
        }),
      );
      await recordAudit(tx, user, { action: 'agent.update', entityType: 'agent', entityId: id, tenantId: agent.tenantId, before, after: agent });
      // The editor shows the saved record: with whether it now differs from the live version.
      return (await withDraftState(tx, [agent]))[0];
    });
  }

  @Delete(':id')
  @ApiResponse({ status: 409, description: '`agent-in-use`: a channel or session uses the agent.' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Delete an agent that no channel or session uses (409 agent-in-use otherwise)' })
  @Answers({ status: 200, description: 'The deleted agent.', schema: agentRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<AgentRecord> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = agentDto(await this.find(user, id, tx));
      const [channels, sessions] = await Promise.all([tx.channel.count({ where: { agentId: id } }), tx.session.count({ where: { agentId: id } })]);
      if (channels + sessions > 0) {
        throw new InUseError('agent-in-use', `The agent is used by ${channels} channel(s) and ${sessions} session(s); move or delete them first.`, { channels, sessions });
      }
      await tx.agent.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'agent.delete', entityType: 'agent', entityId: id, tenantId: before.tenantId, before });
      return before;
    });
  }

  @Post(':id/publish')
  @ApiResponse({ status: 422, description: '`publish-blocked`: the draft does not load (details say why); nothing published.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'Validate the draft with the engine, run its conversation tests, and publish it as version N+1 with { note?, overrideReason? } (422 flow-configuration with the JSON path, a provider-* code for a base URL the worker would refuse, or 422 publish-blocked-by-tests with the results; an owner may override failing tests with a reason)',
  })
  @Answers({ status: 200, description: 'Published as the new version, with the tests it ran.', schema: publishAnswer })
  publish(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(publishBody)) body: PublishBody): Promise<PublishResult> {
    if (!isUuid(id)) throw new ResourceNotFoundError('agent', id);
    return this.publishAgent.execute(user, id, body);
  }

  @Post(':id/versions/:version/restore')
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      "Make an earlier version's config the draft; with { publish: true, note?, overrideReason? } publish it too, through the same checks and tests as any publish",
  })
  @Answers({ status: 200, description: 'The version is the draft again (and published, when asked).', schema: restoreAnswer })
  restore(
    @CurrentUser() user: AdminUser,
    @Param('id') id: string,
    @Param('version') version: string,
    @Body(new ZodValidationPipe(restoreBody)) body: RestoreBody,
  ): Promise<z.infer<typeof restoreAnswer>> {
    if (!isUuid(id)) throw new ResourceNotFoundError('agent', id);
    return this.restoreVersion.execute(user, id, version, body);
  }

  @Post(':id/validate')
  @ApiResponse({ status: 422, description: "`flow-configuration`: the configuration's flows do not load (details name the JSON path and the engine's code)." })
  @HttpCode(200)
  @Roles(...READERS)
  @ApiOperation({ summary: 'Run the publish checks on the draft without publishing: 200 { warnings } or the same 422 as publish' })
  @Answers({ status: 200, description: 'The draft loads; what looks like a mistake.', schema: validateAnswer })
  validate(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<z.infer<typeof validateAnswer>> {
    if (!isUuid(id)) throw new ResourceNotFoundError('agent', id);
    return this.publishAgent.check(user, id);
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.agent.findFirst({ where: { id, ...tenantScope(user) }, select: agentSelect }) : null;
    if (!row) throw new ResourceNotFoundError('agent', id);
    return row;
  }
}
