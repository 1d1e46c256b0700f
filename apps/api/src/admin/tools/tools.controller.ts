import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { listReply } from '../common/list-reply';
import { isUuid } from '../list-query/filters';
import { FilterValueError, parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { HttpToolsService } from './http-tools.service';
import { agentsUsingTools } from './used-by';
import { maskUrlCredentials } from '@switchboard/outbound';
import { Answers } from '../../docs/answer.decorator';
import { toolRecord, type ToolRecord } from './tool.answers';
import { z } from 'zod';

type ToolDto = ToolRecord;

type Predicate = (t: ToolDto) => boolean;
const text = (v: unknown): string => {
  if (typeof v !== 'string' || v.length > 200) throw new FilterValueError('must be a string of at most 200 characters.');
  return v;
};

const toolsListSpec: ListSpec<Predicate> = {
  resource: 'tools',
  sortFields: ['toolId', 'kind', 'id'],
  defaultSort: ['toolId', 'asc'],
  tieBreaker: 'id',
  filters: {
    kind: (v) => {
      if (v !== 'code' && v !== 'http') throw new FilterValueError('must be "code" or "http".');
      return (t) => t.kind === v;
    },
    toolId: (v) => {
      const id = text(v);
      return (t) => t.toolId === id;
    },
    q: (v) => {
      const q = text(v).toLowerCase();
      return (t) => t.toolId.toLowerCase().includes(q) || t.description.toLowerCase().includes(q);
    },
    id: (v) => {
      const ids = Array.isArray(v) ? v : [v];
      if (!ids.every(isUuid)) throw new FilterValueError('must be a UUID or a list of UUIDs.');
      return (t) => ids.includes(t.id);
    },
  },
};

/**
 * Every tool the user's agents may allow: the worker's code tools (synced to RegisteredTool at
 * its start-up) and the tenant's HTTP tools, each with the agents that use it. The two sets are
 * small (tens), so they are merged, filtered and paged in memory.
 */
@ApiTags('console admin')
@Controller('v1/admin/tools')
@UseGuards(AdminAuthGuard)
export class ToolsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly httpTools: HttpToolsService,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Code and HTTP tools with the agents using each; filter {kind, q, toolId, id}; Content-Range' })
  @Answers({ status: 200, description: 'One page of tools (code and HTTP); the total is in Content-Range.', schema: z.array(toolRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<ToolDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, toolsListSpec);
    const all = (await this.allTools(user)).filter((t) => where.every((p) => p(t)));
    all.sort((a, b) => {
      for (const order of orderBy) {
        const [field, dir] = Object.entries(order)[0] as [keyof ToolDto, 'asc' | 'desc'];
        const cmp = String(a[field]).localeCompare(String(b[field]));
        if (cmp !== 0) return dir === 'asc' ? cmp : -cmp;
      }
      return 0;
    });
    return listReply(reply, 'tools', skip, all.slice(skip, skip + take), all.length);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One code or HTTP tool' })
  @Answers({ status: 200, description: 'The tool.', schema: toolRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ToolDto> {
    const tool = isUuid(id) ? (await this.allTools(user)).find((t) => t.id === id) : undefined;
    if (!tool) throw new ResourceNotFoundError('tool', id);
    return tool;
  }

  private async allTools(user: AdminUser): Promise<ToolDto[]> {
    const scope = tenantScope(user);
    const [code, http] = await Promise.all([
      this.prisma.registeredTool.findMany({ orderBy: { toolId: 'asc' } }),
      this.prisma.toolDefinition.findMany({ where: scope, orderBy: { toolId: 'asc' } }),
    ]);
    const usedBy = await agentsUsingTools(this.prisma, scope, [...new Set([...code, ...http].map((t) => t.toolId))]);
    return [
      ...code.map(
        (t): ToolDto => ({
          id: t.id,
          kind: 'code',
          toolId: t.toolId,
          tenantId: null,
          description: t.description,
          parameters: t.parameters,
          readOnly: t.readOnly,
          destructive: t.destructive,
          usedBy: usedBy.get(t.toolId) ?? [],
        }),
      ),
      ...http.map(
        (t): ToolDto => ({
          id: t.id,
          kind: 'http',
          toolId: t.toolId,
          tenantId: t.tenantId,
          description: t.description,
          parameters: t.parameters,
          readOnly: t.readOnly,
          destructive: t.destructive,
          // An HTTP tool id means this tool only inside its own tenant.
          usedBy: (usedBy.get(t.toolId) ?? []).filter((a) => a.tenantId === t.tenantId),
          url: maskUrlCredentials(t.url),
          method: t.method,
        }),
      ),
    ];
  }
}
