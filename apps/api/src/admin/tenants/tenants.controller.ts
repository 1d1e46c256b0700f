import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Param, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import { Roles } from '../auth/roles.decorator';
import { isUuid, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import { contentRange, parseListQuery, type ListSpec } from '../list-query/list-query';

const tenantSelect = { id: true, name: true, slug: true, createdAt: true, updatedAt: true } as const;

const tenantsListSpec: ListSpec<Prisma.TenantWhereInput> = {
  resource: 'tenants',
  sortFields: ['name', 'slug', 'createdAt', 'id'],
  defaultSort: ['name', 'asc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), slug: textEqualsFilter('slug'), q: textContainsFilter('name') },
};

/** Tenants are the platform's business: only platform admins list them. */
@ApiTags('console admin')
@Controller('v1/admin/tenants')
@UseGuards(AdminAuthGuard)
export class TenantsController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles('platform_admin')
  @ApiOperation({ summary: 'Tenants (platform admins only), simple-REST' })
  async list(@Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply) {
    const { where, orderBy, skip, take } = parseListQuery(query, tenantsListSpec);
    const [rows, total] = await this.prisma.$transaction([
      this.prisma.tenant.findMany({ where: { AND: where }, orderBy, skip, take, select: tenantSelect }),
      this.prisma.tenant.count({ where: { AND: where } }),
    ]);
    reply.header('Content-Range', contentRange('tenants', skip, rows.length, total));
    return rows;
  }

  @Get(':id')
  @Roles('platform_admin')
  @ApiOperation({ summary: 'One tenant (platform admins only)' })
  async getOne(@Param('id') id: string) {
    const row = isUuid(id) ? await this.prisma.tenant.findUnique({ where: { id }, select: tenantSelect }) : null;
    if (!row) throw new ResourceNotFoundError('tenant', id);
    return row;
  }
}
