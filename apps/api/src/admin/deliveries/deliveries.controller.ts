import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Controller, Get, HttpCode, Param, Post, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { adminTransaction } from '../common/admin-transaction';
import { listReply } from '../common/list-reply';
import { OPERATORS } from '../common/ops-roles';
import { isUuid } from '../list-query/filters';
import { parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { deliveriesListSpec, deliverySelect, toDeliveryDto, type DeliveryDto } from './delivery.dto';
import { RedriveDelivery } from './redrive-delivery.usecase';
import { Answers } from '../../docs/answer.decorator';
import { deliveryRecord } from './delivery.dto';
import { z } from 'zod';

/** Outbound webhook deliveries of replies: what was sent where, how often, the last error; redrive. */
@ApiTags('console admin')
@Controller('v1/admin/deliveries')
@UseGuards(AdminAuthGuard)
export class DeliveriesController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly redrive: RedriveDelivery,
  ) {}

  @Get()
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Webhook deliveries, simple-REST (filter {status, channelId, sessionId, messageId}); total in Content-Range' })
  @Answers({ status: 200, description: 'One page of deliveries; the total is in Content-Range.', schema: z.array(deliveryRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<DeliveryDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, deliveriesListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.delivery.findMany({ where: scoped, orderBy, skip, take, select: deliverySelect }), tx.delivery.count({ where: scoped })]),
    );
    return listReply(reply, 'deliveries', skip, rows.map(toDeliveryDto), total);
  }

  @Get(':id')
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'One delivery: attempts, last status code and error, URL (never the signing secret)' })
  @Answers({ status: 200, description: 'The delivery.', schema: deliveryRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<DeliveryDto> {
    const row = isUuid(id) ? await this.prisma.delivery.findFirst({ where: { id, ...tenantScope(user) }, select: deliverySelect }) : null;
    if (!row) throw new ResourceNotFoundError('delivery', id);
    return toDeliveryDto(row);
  }

  @Post(':id/redrive')
  @ApiResponse({ status: 409, description: '`delivery-not-redrivable`: the delivery is not dead or failed.' })
  @HttpCode(200)
  @Roles(...OPERATORS)
  @ApiOperation({ summary: 'Send a dead or failed delivery again (fresh attempts, in session order); 409 delivery-not-redrivable otherwise' })
  @Answers({ status: 200, description: 'The delivery, pending again.', schema: deliveryRecord })
  redriveOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<DeliveryDto> {
    return this.redrive.execute(user, id);
  }
}
