import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { adminTransaction } from '../common/admin-transaction';
import type { FastifyReply } from 'fastify';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { listReply } from '../common/list-reply';
import { enumFilter, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { createHttpToolBody, httpToolColumns, updateHttpToolBody, type CreateHttpToolBody, type HttpToolDto, type UpdateHttpToolBody } from './http-tool.dto';
import { HttpToolsService } from './http-tools.service';
import { HttpToolTestCall, httpToolTestBody, type HttpToolTestAnswer, type HttpToolTestBody } from './http-tool-test.usecase';
import { Answers } from '../../docs/answer.decorator';
import { httpToolRecord, httpToolTestAnswer } from './tool.answers';
import { z } from 'zod';

const listSpec: ListSpec<Prisma.ToolDefinitionWhereInput> = {
  resource: 'http-tools',
  sortFields: ['toolId', 'createdAt', 'updatedAt', 'method', 'id'],
  defaultSort: ['toolId', 'asc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    toolId: textEqualsFilter('toolId'),
    method: enumFilter('method', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const),
    q: textContainsFilter('toolId'),
  },
};

/** A tenant's HTTP tools (URL, method, JSON Schema parameters, headers, secret headers, timeout, flags). */
@ApiTags('console admin')
@Controller('v1/admin/http-tools')
@UseGuards(AdminAuthGuard)
export class HttpToolsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly tools: HttpToolsService,
    private readonly testCall: HttpToolTestCall,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'HTTP tools, simple-REST; secret header values never shown (secretHeaderNames only)' })
  @Answers({ status: 200, description: 'One page of HTTP tools; the total is in Content-Range.', schema: z.array(httpToolRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<HttpToolDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.toolDefinition.findMany({ where: scoped, orderBy, skip, take, select: httpToolColumns }), tx.toolDefinition.count({ where: scoped })]),
    );
    return listReply(reply, 'http-tools', skip, rows.map((r) => this.tools.toDto(r)), total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One HTTP tool' })
  @Answers({ status: 200, description: 'The HTTP tool (secret header names, never values).', schema: httpToolRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<HttpToolDto> {
    return this.tools.toDto(await this.tools.find(user, id));
  }

  @Post()
  @ApiResponse({ status: 409, description: '`already-exists`: the tenant has an HTTP tool with this toolId.' })
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Create an HTTP tool (parameters must be a JSON Schema object)' })
  @Answers({ status: 201, description: 'The new HTTP tool.', schema: httpToolRecord })
  create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createHttpToolBody)) body: CreateHttpToolBody): Promise<HttpToolDto> {
    return this.tools.create(user, body);
  }

  @Put(':id')
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Edit an HTTP tool; secretHeaders, when sent, replaces all secret headers' })
  @Answers({ status: 200, description: 'The saved HTTP tool.', schema: httpToolRecord })
  update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updateHttpToolBody)) body: UpdateHttpToolBody): Promise<HttpToolDto> {
    return this.tools.update(user, id, body);
  }

  @Post(':id/test')
  @ApiResponse({ status: 422, description: "`invalid-tool-arguments`: the arguments do not match the tool's parameters (details per field)." })
  @ApiResponse({ status: 502, description: '`http-tool-test-failed`: the worker could not run the test call.' })
  @ApiResponse({ status: 504, description: '`http-tool-test-timeout`: no worker answered in time.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'Test call: a worker calls the endpoint with these arguments (secret headers and SSRF guard included) and the answer comes back: status, headers, capped body, or the tool error. 422 invalid-tool-arguments, 504 http-tool-test-timeout when no worker answers',
  })
  @Answers({ status: 200, description: 'What the endpoint answered, or why it did not (`ok: false`).', schema: httpToolTestAnswer })
  test(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(httpToolTestBody)) body: HttpToolTestBody): Promise<HttpToolTestAnswer> {
    return this.testCall.run(user, id, body);
  }

  @Delete(':id')
  @ApiResponse({ status: 409, description: '`tool-in-use`: an agent allows it.' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Delete an HTTP tool no agent allows (409 tool-in-use otherwise)' })
  @Answers({ status: 200, description: 'The deleted HTTP tool.', schema: httpToolRecord })
  remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<HttpToolDto> {
    return this.tools.remove(user, id);
  }
}
