import { Injectable } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import { AlreadyExistsError, InUseError, ResourceNotFoundError } from '../admin-errors';
import type { AdminUser } from '../auth/admin-user';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { HTTP_TOOL_CREDENTIAL_FIX, refuseUrlCredentials } from '../common/url-credentials';
import { isUniqueViolation } from '../common/prisma-errors';
import { SECRET_CONTEXTS, SecretBox } from '../common/secret-box';
import { targetTenant } from '../common/tenant-target';
import { isUuid } from '../list-query/filters';
import { tenantScope } from '../tenant-scope';
import {
  httpToolColumns,
  toHttpToolDto,
  type CreateHttpToolBody,
  type HttpToolDto,
  type HttpToolRow,
  type UpdateHttpToolBody,
} from './http-tool.dto';
import { agentsUsingTools } from './used-by';

const json = (v: unknown) => v as Prisma.InputJsonValue;

/** Create, edit and delete a tenant's HTTP tools; secret header values are encrypted and write-only. */
@Injectable()
export class HttpToolsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  toDto(row: HttpToolRow): HttpToolDto {
    return toHttpToolDto(row, this.secretHeaderNames(row));
  }

  async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma): Promise<HttpToolRow> {
    const row = isUuid(id) ? await db.toolDefinition.findFirst({ where: { id, ...tenantScope(user) }, select: httpToolColumns }) : null;
    if (!row) throw new ResourceNotFoundError('HTTP tool', id);
    return row;
  }

  async create(user: AdminUser, body: CreateHttpToolBody): Promise<HttpToolDto> {
    const tenantId = targetTenant(user, body.tenantId);
    refuseUrlCredentials(body.url, 'url', HTTP_TOOL_CREDENTIAL_FIX);
    const { secretHeaders, tenantId: _, ...rest } = body;
    try {
      return await adminTransaction(this.prisma, user, async (tx) => {
        // A code tool and an HTTP tool with one id would make allow-lists ambiguous.
        if (await tx.registeredTool.findUnique({ where: { toolId: body.toolId }, select: { id: true } })) {
          throw new AlreadyExistsError('code tool with the id', body.toolId);
        }
        const row = await tx.toolDefinition.create({
          data: {
            ...rest,
            tenantId,
            parameters: json(rest.parameters),
            headers: json(rest.headers),
            secretHeadersEncrypted: this.encryptHeaders(tenantId, secretHeaders),
          },
          select: httpToolColumns,
        });
        const dto = this.toDto(row);
        await recordAudit(tx, user, { action: 'tool.create', entityType: 'http-tool', entityId: row.id, tenantId, after: dto });
        return dto;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('tool with the id', body.toolId);
      throw err;
    }
  }

  async update(user: AdminUser, id: string, body: UpdateHttpToolBody): Promise<HttpToolDto> {
    refuseUrlCredentials(body.url, 'url', HTTP_TOOL_CREDENTIAL_FIX);
    return adminTransaction(this.prisma, user, async (tx) => {
      const beforeRow = await this.find(user, id, tx);
      const { secretHeaders, parameters, headers, ...rest } = body;
      const row = await tx.toolDefinition.update({
        where: { id },
        data: {
          ...rest,
          ...(parameters !== undefined && { parameters: json(parameters) }),
          ...(headers !== undefined && { headers: json(headers) }),
          ...(secretHeaders !== undefined && { secretHeadersEncrypted: this.encryptHeaders(beforeRow.tenantId, secretHeaders) }),
        },
        select: httpToolColumns,
      });
      const before = this.toDto(beforeRow);
      const after = this.toDto(row);
      await recordAudit(tx, user, { action: 'tool.update', entityType: 'http-tool', entityId: id, tenantId: row.tenantId, before, after });
      return after;
    });
  }

  async remove(user: AdminUser, id: string): Promise<HttpToolDto> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const row = await this.find(user, id, tx);
      const users = (await agentsUsingTools(tx, { tenantId: row.tenantId }, [row.toolId])).get(row.toolId) ?? [];
      if (users.length > 0) {
        throw new InUseError('tool-in-use', `Agents ${users.map((a) => `"${a.name}"`).join(', ')} allow this tool; remove it from their allow-lists first.`, { agents: users });
      }
      await tx.toolDefinition.delete({ where: { id } });
      const before = this.toDto(row);
      await recordAudit(tx, user, { action: 'tool.delete', entityType: 'http-tool', entityId: id, tenantId: row.tenantId, before });
      return before;
    });
  }

  private encryptHeaders(tenantId: string, headers: Record<string, string>): string | null {
    if (Object.keys(headers).length === 0) return null;
    return this.secrets.encrypt(JSON.stringify(headers), SECRET_CONTEXTS.httpToolHeaders(tenantId));
  }

  private secretHeaderNames(row: HttpToolRow): string[] {
    if (!row.secretHeadersEncrypted) return [];
    const map = JSON.parse(this.secrets.decrypt(row.secretHeadersEncrypted, SECRET_CONTEXTS.httpToolHeaders(row.tenantId))) as Record<string, string>;
    return Object.keys(map).sort();
  }
}
