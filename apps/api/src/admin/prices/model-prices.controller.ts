import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AlreadyExistsError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { recordAudit } from '../common/audit';
import { listReply } from '../common/list-reply';
import { isUniqueViolation } from '../common/prisma-errors';
import { isUuid, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { createPriceBody, priceData, priceDto, priceRecord, priceSelect, updatePriceBody, type CreatePriceBody, type UpdatePriceBody } from './price-body';
import { Answers } from '../../docs/answer.decorator';
import { z } from 'zod';

const listSpec: ListSpec<Prisma.ModelPriceWhereInput> = {
  resource: 'model-prices',
  sortFields: ['provider', 'model', 'effectiveFrom', 'id'],
  defaultSort: ['provider', 'asc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), provider: textEqualsFilter('provider'), model: textEqualsFilter('model'), q: textContainsFilter('model') },
};

/**
 * The platform's list prices of models (docs/cost.md). Every console user reads them (they are
 * the providers' published prices); only platform admins change them, each change audited. A
 * price change is best a new row with a later `effectiveFrom`: turns already priced keep theirs.
 */
@ApiTags('console admin')
@Controller('v1/admin/model-prices')
@UseGuards(AdminAuthGuard)
export class ModelPricesController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'List prices per provider and model (per million tokens), simple-REST' })
  @Answers({ status: 200, description: 'One page of prices; the total is in Content-Range.', schema: z.array(priceRecord) })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<z.infer<typeof priceRecord>[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.modelPrice.findMany({ where: { AND: where }, orderBy, skip, take, select: priceSelect }),
      this.prisma.modelPrice.count({ where: { AND: where } }),
    ]);
    return listReply(reply, 'model-prices', skip, rows.map(priceDto), total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One list price' })
  @Answers({ status: 200, description: 'The price.', schema: priceRecord })
  async getOne(@Param('id') id: string): Promise<z.infer<typeof priceRecord>> {
    return priceDto(await this.find(id));
  }

  @Post()
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Add a list price (platform admins only); effectiveFrom defaults to now' })
  @ApiResponse({ status: 409, description: '`already-exists`: a price of this model from that date exists.' })
  @Answers({ status: 201, description: 'The new price.', schema: priceRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createPriceBody)) body: CreatePriceBody): Promise<z.infer<typeof priceRecord>> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const data = { ...priceData(body), provider: body.provider, model: body.model, inputPerMillionMicros: body.input, cachedInputPerMillionMicros: body.cachedInput, outputPerMillionMicros: body.output, effectiveFrom: body.effectiveFrom ?? new Date() };
        const row = priceDto(await tx.modelPrice.create({ data, select: priceSelect }));
        await recordAudit(tx, user, { action: 'model-price.create', entityType: 'model-price', entityId: row.id, tenantId: null, after: row });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('price of the model from that date', `${body.provider}/${body.model}`);
      throw err;
    }
  }

  @Put(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Correct a list price (platform admins only)' })
  @ApiResponse({ status: 409, description: '`already-exists`: a price of this model from that date exists.' })
  @Answers({ status: 200, description: 'The saved price.', schema: priceRecord })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updatePriceBody)) body: UpdatePriceBody): Promise<z.infer<typeof priceRecord>> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        const before = priceDto(await this.find(id, tx));
        const after = priceDto(await tx.modelPrice.update({ where: { id }, data: priceData(body), select: priceSelect }));
        await recordAudit(tx, user, { action: 'model-price.update', entityType: 'model-price', entityId: id, tenantId: null, before, after });
        return after;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('price of the model from that date', `${body.provider ?? ''}/${body.model ?? ''}`);
      throw err;
    }
  }

  @Delete(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Delete a list price (platform admins only); turns already priced keep their cost' })
  @Answers({ status: 200, description: 'The deleted price.', schema: priceRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<z.infer<typeof priceRecord>> {
    return this.prisma.$transaction(async (tx) => {
      const before = priceDto(await this.find(id, tx));
      await tx.modelPrice.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'model-price.delete', entityType: 'model-price', entityId: id, tenantId: null, before });
      return before;
    });
  }

  private async find(id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.modelPrice.findUnique({ where: { id }, select: priceSelect }) : null;
    if (!row) throw new ResourceNotFoundError('model price', id);
    return row;
  }
}
