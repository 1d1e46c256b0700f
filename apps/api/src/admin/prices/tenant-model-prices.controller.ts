import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AlreadyExistsError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { listReply } from '../common/list-reply';
import { isUniqueViolation } from '../common/prisma-errors';
import { targetTenant } from '../common/tenant-target';
import { isUuid, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { createTenantPriceBody, priceData, priceDto, priceSelect, tenantPriceRecord, updatePriceBody, type UpdatePriceBody } from './price-body';
import { Answers } from '../../docs/answer.decorator';

const select = { ...priceSelect, tenantId: true } as const;

const listSpec: ListSpec<Prisma.TenantModelPriceWhereInput> = {
  resource: 'tenant-model-prices',
  sortFields: ['provider', 'model', 'effectiveFrom', 'id'],
  defaultSort: ['provider', 'asc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    provider: textEqualsFilter('provider'),
    model: textEqualsFilter('model'),
    q: textContainsFilter('model'),
  },
};

/**
 * A tenant's negotiated model prices, which replace the list price for that tenant from their
 * `effectiveFrom` on. Tenant users read their own; only platform admins set them (the price is
 * the platform's deal with the tenant), each change in the tenant's audit log.
 */
@ApiTags('console admin')
@Controller('v1/admin/tenant-model-prices')
@UseGuards(AdminAuthGuard)
export class TenantModelPricesController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: "A tenant's negotiated prices, simple-REST" })
  @Answers({ status: 200, description: 'One page of prices; the total is in Content-Range.', schema: z.array(tenantPriceRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<z.infer<typeof tenantPriceRecord>[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.tenantModelPrice.findMany({ where: scoped, orderBy, skip, take, select }), tx.tenantModelPrice.count({ where: scoped })]),
    );
    return listReply(reply, 'tenant-model-prices', skip, rows.map(priceDto), total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One negotiated price' })
  @Answers({ status: 200, description: 'The tenant price.', schema: tenantPriceRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<z.infer<typeof tenantPriceRecord>> {
    return priceDto(await this.find(user, id));
  }

  @Post()
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Set a negotiated price for a tenant (platform admins only); effectiveFrom defaults to now' })
  @ApiResponse({ status: 409, description: '`already-exists`: a price of this model from that date exists.' })
  @ApiResponse({ status: 404, description: '`not-found`: no tenant has this id.' })
  @Answers({ status: 201, description: 'The new tenant price.', schema: tenantPriceRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createTenantPriceBody)) body: z.infer<typeof createTenantPriceBody>): Promise<z.infer<typeof tenantPriceRecord>> {
    const tenantId = targetTenant(user, body.tenantId);
    try {
      return await this.prisma.$transaction(async (tx) => {
        if (!(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) throw new ResourceNotFoundError('tenant', tenantId);
        const data = { ...priceData(body), tenantId, provider: body.provider, model: body.model, inputPerMillionMicros: body.input, cachedInputPerMillionMicros: body.cachedInput, outputPerMillionMicros: body.output, effectiveFrom: body.effectiveFrom ?? new Date() };
        const row = priceDto(await tx.tenantModelPrice.create({ data, select }));
        await recordAudit(tx, user, { action: 'tenant-model-price.create', entityType: 'tenant-model-price', entityId: row.id, tenantId, after: row });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('negotiated price of the model from that date', `${body.provider}/${body.model}`);
      throw err;
    }
  }

  @Put(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Correct a negotiated price (platform admins only)' })
  @ApiResponse({ status: 409, description: '`already-exists`: a price of this model from that date exists.' })
  @Answers({ status: 200, description: 'The saved tenant price.', schema: tenantPriceRecord })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updatePriceBody)) body: UpdatePriceBody): Promise<z.infer<typeof tenantPriceRecord>> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const before = priceDto(await this.find(user, id, tx));
        const after = priceDto(await tx.tenantModelPrice.update({ where: { id }, data: priceData(body), select }));
        await recordAudit(tx, user, { action: 'tenant-model-price.update', entityType: 'tenant-model-price', entityId: id, tenantId: before.tenantId, before, after });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('negotiated price of the model from that date', `${body.provider ?? ''}/${body.model ?? ''}`);
      throw err;
    }
  }

  @Delete(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Delete a negotiated price (platform admins only): the list price applies again' })
  @Answers({ status: 200, description: 'The deleted tenant price.', schema: tenantPriceRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<z.infer<typeof tenantPriceRecord>> {
    return this.prisma.$transaction(async (tx) => {
      const before = priceDto(await this.find(user, id, tx));
      await tx.tenantModelPrice.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'tenant-model-price.delete', entityType: 'tenant-model-price', entityId: id, tenantId: before.tenantId, before });
      return before;
    });
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.tenantModelPrice.findFirst({ where: { id, ...tenantScope(user) }, select }) : null;
    if (!row) throw new ResourceNotFoundError('negotiated price', id);
    return row;
  }
}
