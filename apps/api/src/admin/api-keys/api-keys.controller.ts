import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { generateApiKey, PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ApiKeyCache } from '../../channel-auth/api-key-cache';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { ResourceNotFoundError, UnknownReferenceError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { listReply } from '../common/list-reply';
import { selectOf } from '../common/answer-schemas';
import { Answers } from '../../docs/answer.decorator';
import { isUuid, textContainsFilter, uuidFilter } from '../list-query/filters';
import { FilterValueError, parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';

/** Everything about a key except its hash. */
const apiKeyRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  channelId: z.uuid(),
  name: z.string(),
  /** The key's first characters, to tell keys apart; the key itself is never shown again. */
  prefix: z.string(),
  lastUsedAt: z.date().nullable(),
  revokedAt: z.date().nullable(),
  createdAt: z.date(),
});
type ApiKeyRecord = z.infer<typeof apiKeyRecord>;
const apiKeySelect = selectOf(apiKeyRecord);
/** Create's answer: the plaintext key, this once. */
const createdApiKey = apiKeyRecord.extend({ key: z.string().describe('The key (sb_live_...): shown in this answer only.') });

const createApiKeyBody = z.strictObject({
  channelId: z.string().uuid(),
  name: z.string().trim().max(200).default(''),
});

const apiKeysListSpec: ListSpec<Prisma.ApiKeyWhereInput> = {
  resource: 'api-keys',
  sortFields: ['createdAt', 'name', 'lastUsedAt', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    channelId: uuidFilter('channelId'),
    q: textContainsFilter('name'),
    revoked: (v: unknown) => {
      if (typeof v !== 'boolean') throw new FilterValueError('must be true or false.');
      return { revokedAt: v ? { not: null } : null };
    },
  },
};

/** Channel API keys: the plaintext is in the create answer only; the database keeps its SHA-256. */
@ApiTags('console admin')
@Controller('v1/admin/api-keys')
@UseGuards(AdminAuthGuard)
export class ApiKeysController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly verifiedKeys: ApiKeyCache,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'API keys (prefix, never the key), simple-REST (filter {channelId, revoked, q})' })
  @Answers({ status: 200, description: 'One page of keys; the total is in Content-Range.', schema: z.array(apiKeyRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<ApiKeyRecord[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, apiKeysListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.apiKey.findMany({ where: scoped, orderBy, skip, take, select: apiKeySelect }), tx.apiKey.count({ where: scoped })]),
    );
    return listReply(reply, 'api-keys', skip, rows, total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One API key (prefix only)' })
  @Answers({ status: 200, description: 'The key, without its secret.', schema: apiKeyRecord })
  getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ApiKeyRecord> {
    return this.find(user, id);
  }

  @Post()
  @ApiResponse({ status: 422, description: '`unknown-channel`: channelId names no channel of this tenant.' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Create a key for a channel; the plaintext `key` is in this answer only' })
  @Answers({ status: 201, description: 'The new key, with its plaintext `key` this once.', schema: createdApiKey })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createApiKeyBody)) body: z.infer<typeof createApiKeyBody>): Promise<z.infer<typeof createdApiKey>> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const channel = await tx.channel.findFirst({ where: { id: body.channelId, ...tenantScope(user) }, select: { tenantId: true } });
      if (!channel) throw new UnknownReferenceError('unknown-channel', `channelId "${body.channelId}" names no channel of this tenant.`, ['channelId']);
      const generated = generateApiKey();
      const row = await tx.apiKey.create({
        data: { tenantId: channel.tenantId, channelId: body.channelId, name: body.name, prefix: generated.prefix, keyHash: generated.hash },
        select: apiKeySelect,
      });
      await recordAudit(tx, user, { action: 'api-key.create', entityType: 'api-key', entityId: row.id, tenantId: row.tenantId, after: row });
      return { ...row, key: generated.key };
    });
  }

  @Delete(':id')
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Revoke a key (kept, with revokedAt, so its use stays traceable); idempotent' })
  @Answers({ status: 200, description: 'The key as revoked (revokedAt set).', schema: apiKeyRecord })
  async revoke(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ApiKeyRecord> {
    const revoked = await adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      if (before.revokedAt) return before;
      const after = await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() }, select: apiKeySelect });
      await recordAudit(tx, user, { action: 'api-key.revoke', entityType: 'api-key', entityId: id, tenantId: after.tenantId, before, after });
      return after;
    });
    this.verifiedKeys.forgetKey(id); // after the commit: this process refuses the key from now on
    return revoked;
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.apiKey.findFirst({ where: { id, ...tenantScope(user) }, select: apiKeySelect }) : null;
    if (!row) throw new ResourceNotFoundError('API key', id);
    return row;
  }
}
