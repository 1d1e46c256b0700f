import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, secretHint, type Prisma, type ProviderKind } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AlreadyExistsError, InUseError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { PROVIDER_CREDENTIAL_FIX, refuseUrlCredentials } from '../common/url-credentials';
import { listReply } from '../common/list-reply';
import { isUniqueViolation } from '../common/prisma-errors';
import { SECRET_CONTEXTS, SecretBox } from '../common/secret-box';
import { targetTenant } from '../common/tenant-target';
import { enumFilter, isUuid, textContainsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { Answers } from '../../docs/answer.decorator';
import { selectOf } from '../common/answer-schemas';

// The API speaks the agent config's provider kinds; the database enum spells one differently.
const KINDS = ['openai', 'gemini', 'openai-compatible'] as const;

/** What the API shows of a credential: never the secret, at most its last 4 characters. */
const credentialRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  name: z.string(),
  kind: z.enum(KINDS),
  /** An OpenAI-compatible server's URL; null for the provider's own. */
  baseURL: z.string().nullable(),
  secretLast4: z.string(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
type CredentialRecord = z.infer<typeof credentialRecord>;
const credentialSelect = selectOf(credentialRecord);
const toDbKind = (k: (typeof KINDS)[number]): ProviderKind => (k === 'openai-compatible' ? 'openai_compatible' : k);
const fromDbKind = (k: ProviderKind) => (k === 'openai_compatible' ? 'openai-compatible' : k);
type CredentialRow = Prisma.ProviderCredentialGetPayload<{ select: typeof credentialSelect }>;
const toDto = (row: CredentialRow): CredentialRecord => ({ ...row, kind: fromDbKind(row.kind) });

const name = z.string().trim().min(1).max(200);
const baseURL = z.string().url().max(2000).nullable().optional();
const createBody = z.strictObject({
  tenantId: z.string().optional(),
  name,
  kind: z.enum(KINDS),
  baseURL,
  secret: z.string().min(1).max(4000),
});
// react-admin sends the record back: read-only keys dropped. A new `secret` replaces the old.
const updateBody = z.object({ name: name.optional(), baseURL, secret: z.string().min(1).max(4000).optional() });

const listSpec: ListSpec<Prisma.ProviderCredentialWhereInput> = {
  resource: 'provider-credentials',
  sortFields: ['name', 'createdAt', 'kind', 'id'],
  defaultSort: ['name', 'asc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    kind: (v: unknown) => {
      const where = enumFilter('kind', KINDS)(v);
      const kind = where.kind;
      return { kind: typeof kind === 'string' ? toDbKind(kind) : { in: kind.in.map(toDbKind) } };
    },
    q: textContainsFilter('name'),
  },
};

/**
 * Tenants' model provider keys. The secret is write-only: encrypted with AES-256-GCM under
 * MASTER_KEY (context `provider-credential:<tenantId>`) and never answered or logged.
 */
@ApiTags('console admin')
@Controller('v1/admin/provider-credentials')
@UseGuards(AdminAuthGuard)
export class CredentialsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Provider credentials (name, kind, last 4 characters; never the secret)' })
  @Answers({ status: 200, description: 'One page of credentials (no secrets); the total is in Content-Range.', schema: z.array(credentialRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<CredentialRecord[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.providerCredential.findMany({ where: scoped, orderBy, skip, take, select: credentialSelect }), tx.providerCredential.count({ where: scoped })]),
    );
    return listReply(reply, 'provider-credentials', skip, rows.map(toDto), total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One provider credential (never the secret)' })
  @Answers({ status: 200, description: 'The credential (last 4 characters of the secret at most).', schema: credentialRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<CredentialRecord> {
    return toDto(await this.find(user, id));
  }

  @Post()
  @ApiResponse({ status: 409, description: '`already-exists`: the tenant has a credential with this name.' })
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Store a provider key (encrypted; write-only)' })
  @Answers({ status: 201, description: 'The stored credential (the secret is never answered).', schema: credentialRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createBody)) body: z.infer<typeof createBody>): Promise<CredentialRecord> {
    const tenantId = targetTenant(user, body.tenantId);
    refuseUrlCredentials(body.baseURL, 'baseURL', PROVIDER_CREDENTIAL_FIX);
    try {
      return await adminTransaction(this.prisma, user, async (tx) => {
        const row = await tx.providerCredential.create({
          data: {
            tenantId,
            name: body.name,
            kind: toDbKind(body.kind),
            baseURL: body.baseURL ?? null,
            secretEncrypted: this.secrets.encrypt(body.secret, SECRET_CONTEXTS.providerCredential(tenantId)),
            secretLast4: secretHint(body.secret),
          },
          select: credentialSelect,
        });
        await recordAudit(tx, user, { action: 'credential.create', entityType: 'provider-credential', entityId: row.id, tenantId, after: toDto(row) });
        return toDto(row);
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('provider credential named', body.name);
      throw err;
    }
  }

  @Put(':id')
  @ApiResponse({ status: 409, description: '`already-exists`: the tenant has a credential with this name.' })
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Rename, change baseURL, or replace the secret of a credential' })
  @Answers({ status: 200, description: 'The saved credential.', schema: credentialRecord })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updateBody)) body: z.infer<typeof updateBody>): Promise<CredentialRecord> {
    refuseUrlCredentials(body.baseURL, 'baseURL', PROVIDER_CREDENTIAL_FIX);
    try {
      return await adminTransaction(this.prisma, user, async (tx) => {
        const before = toDto(await this.find(user, id, tx));
        const row = await tx.providerCredential.update({
          where: { id },
          data: {
            ...(body.name !== undefined && { name: body.name }),
            ...(body.baseURL !== undefined && { baseURL: body.baseURL }),
            ...(body.secret !== undefined && {
              secretEncrypted: this.secrets.encrypt(body.secret, SECRET_CONTEXTS.providerCredential(before.tenantId)),
              secretLast4: secretHint(body.secret),
            }),
          },
          select: credentialSelect,
        });
        const after = toDto(row);
        await recordAudit(tx, user, {
          action: body.secret !== undefined ? 'credential.rotate' : 'credential.update',
          entityType: 'provider-credential',
          entityId: id,
          tenantId: before.tenantId,
          before,
          after,
        });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('provider credential named', body.name ?? '');
      throw err;
    }
  }

  @Delete(':id')
  @ApiResponse({ status: 409, description: '`credential-in-use`: an agent draft uses it.' })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Delete a credential no agent draft uses (409 credential-in-use otherwise)' })
  @Answers({ status: 200, description: 'The deleted credential.', schema: credentialRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<CredentialRecord> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = toDto(await this.find(user, id, tx));
      const users = await tx.agent.findMany({
        where: { tenantId: before.tenantId, config: { path: ['provider', 'credentialId'], equals: id } },
        select: { id: true, name: true },
      });
      if (users.length > 0) {
        throw new InUseError('credential-in-use', `Agents ${users.map((a) => `"${a.name}"`).join(', ')} use this credential; point them elsewhere first.`, { agents: users });
      }
      await tx.providerCredential.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'credential.delete', entityType: 'provider-credential', entityId: id, tenantId: before.tenantId, before });
      return before;
    });
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.providerCredential.findFirst({ where: { id, ...tenantScope(user) }, select: credentialSelect }) : null;
    if (!row) throw new ResourceNotFoundError('provider credential', id);
    return row;
  }
}
