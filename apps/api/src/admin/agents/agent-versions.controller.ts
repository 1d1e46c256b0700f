import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { flowSpecSchema, type FieldsDef } from '@falai/agent';
import { PrismaService, type Prisma } from '@switchboard/db';
import { adminTransaction } from '../common/admin-transaction';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { listReply } from '../common/list-reply';
import { isUuid } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { versionSelect } from './agent.dto';
import { diffConfigs, normalizedConfig } from './config-diff';
import { knownActions } from './agent-references';
import { Answers } from '../../docs/answer.decorator';
import { agentVersionRecord, diffAnswer, flowSchemaAnswer, type AgentVersionRecord } from './agent.answers';

const versionsListSpec: ListSpec<Prisma.AgentVersionWhereInput> = {
  resource: 'agent-versions',
  sortFields: ['version', 'publishedAt'],
  defaultSort: ['version', 'desc'],
  tieBreaker: 'version',
  filters: {},
};

/** A version number, or "draft" for the agent's current draft config. */
const versionRef = z.union([z.literal('draft'), z.coerce.number().int().min(1)]);
const diffQuery = z.strictObject({ from: versionRef, to: versionRef.default('draft') });

/** Published versions of an agent (immutable), their diffs, and the FlowSpec JSON Schema for editors. */
@ApiTags('console admin')
@Controller('v1/admin')
@UseGuards(AdminAuthGuard)
export class AgentVersionsController {
  constructor(private readonly prisma: PrismaService) {}

  @Get('agents/:id/versions')
  @Roles(...READERS)
  @ApiOperation({ summary: "An agent's published versions, newest first (config, publishedBy, publishedAt); Content-Range" })
  @Answers({ status: 200, description: 'One page of versions; the total is in Content-Range.', schema: z.array(agentVersionRecord) })
  async list(@CurrentUser() user: AdminUser, @Param('id') id: string, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<AgentVersionRecord[]> {
    const { orderBy, skip, take } = parseListQuery(query, versionsListSpec);
    await this.agent(user, id);
    const where = { agentId: id };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.agentVersion.findMany({ where, orderBy, skip, take, select: versionSelect }), tx.agentVersion.count({ where })]),
    );
    return listReply(reply, 'agent-versions', skip, rows, total);
  }

  @Get('agents/:id/versions/:version')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One published version of an agent' })
  @Answers({ status: 200, description: 'The version.', schema: agentVersionRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string, @Param('version') version: string): Promise<AgentVersionRecord> {
    await this.agent(user, id);
    const n = Number(version);
    const row = Number.isSafeInteger(n) ? await this.prisma.agentVersion.findFirst({ where: { agentId: id, version: n }, select: versionSelect }) : null;
    if (!row) throw new ResourceNotFoundError('agent version', version);
    return row;
  }

  @Get('agents/:id/diff')
  @Roles(...READERS)
  @ApiOperation({ summary: 'Changes between two versions (?from=1&to=2, to defaults to "draft"), as JSON Pointer paths' })
  @Answers({ status: 200, description: 'The changes, in document order.', schema: diffAnswer })
  async diff(
    @CurrentUser() user: AdminUser,
    @Param('id') id: string,
    @Query(new ZodValidationPipe(diffQuery, 'query')) query: z.infer<typeof diffQuery>,
  ): Promise<z.infer<typeof diffAnswer>> {
    const agent = await this.agent(user, id);
    const configOf = async (ref: number | 'draft') => {
      if (ref === 'draft') return agent.config;
      const row = await this.prisma.agentVersion.findFirst({ where: { agentId: id, version: ref }, select: { config: true } });
      if (!row) throw new ResourceNotFoundError('agent version', String(ref));
      return row.config;
    };
    const [from, to] = [normalizedConfig(await configOf(query.from), agent.name), normalizedConfig(await configOf(query.to), agent.name)];
    return { from: query.from, to: query.to, changes: diffConfigs(from, to) };
  }

  @Get('flow-schema')
  @ApiResponse({ status: 404, description: '`not-found`: agentId names no agent of this tenant.' })
  @Roles(...READERS)
  @ApiOperation({ summary: "JSON Schema of valid FlowSpecs for an agent's editor (?agentId=): its fields, allowed tools, and the registered actions and conditions as enums" })
  @Answers({ status: 200, description: 'The JSON Schema.', schema: flowSchemaAnswer })
  async flowSchema(@CurrentUser() user: AdminUser, @Query(new ZodValidationPipe(z.strictObject({ agentId: z.string() }), 'query')) query: { agentId: string }): Promise<z.infer<typeof flowSchemaAnswer>> {
    const agent = await this.agent(user, query.agentId);
    const config = (agent.config ?? {}) as { fields?: unknown; tools?: unknown };
    const fields = (config.fields && typeof config.fields === 'object' ? config.fields : {}) as FieldsDef;
    const tools = Array.isArray(config.tools) ? config.tools.filter((t): t is string => typeof t === 'string') : [];
    // The worker's registered actions and conditions, so the editor offers what publishing accepts.
    const { actions, conditions } = await knownActions(this.prisma);
    return flowSpecSchema({ fields, tools, actions, conditions });
  }

  private async agent(user: AdminUser, id: string) {
    const row = isUuid(id) ? await this.prisma.agent.findFirst({ where: { id, ...tenantScope(user) }, select: { id: true, name: true, config: true } }) : null;
    if (!row) throw new ResourceNotFoundError('agent', id);
    return row;
  }
}
