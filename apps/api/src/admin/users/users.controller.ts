import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, Param, Post, Put, Query, Res, UseGuards } from '@nestjs/common';
import { PrismaService, UserRole, type Prisma } from '@switchboard/db';
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import { BadRequestError } from '../../common/errors';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AlreadyExistsError, ResourceNotFoundError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/password';
import { Roles } from '../auth/roles.decorator';
import { READERS, USER_MANAGERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { listReply } from '../common/list-reply';
import { isUniqueViolation } from '../common/prisma-errors';
import { targetTenant } from '../common/tenant-target';
import { enumFilter, isUuid, textContainsFilter, uuidFilter } from '../list-query/filters';
import { parseListQuery, type ListSpec } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import { assertMayManage, SelfChangeError } from './role-rules';
import { Answers } from '../../docs/answer.decorator';
import { selectOf } from '../common/answer-schemas';

/** Never the password hash. */
/** A console user as answers show it (never the password hash). */
const userRecord = z.object({
  id: z.uuid(),
  /** Null for platform admins. */
  tenantId: z.uuid().nullable(),
  email: z.string(),
  name: z.string(),
  role: z.enum(UserRole),
  /** Set when the account may no longer log in. */
  disabledAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
});
type UserRecord = z.infer<typeof userRecord>;
const userSelect = selectOf(userRecord);

const ROLES = ['platform_admin', 'owner', 'admin', 'operator', 'viewer'] as const;
const password = z.string().min(MIN_PASSWORD_LENGTH).max(1024);
const createBody = z.strictObject({
  tenantId: z.string().optional(),
  email: z.string().trim().toLowerCase().email().max(320),
  name: z.string().trim().max(200).default(''),
  role: z.enum(ROLES),
  password,
});
// react-admin sends the record back: read-only keys dropped. `disabled` toggles disabledAt.
const updateBody = z.object({
  name: z.string().trim().max(200).optional(),
  role: z.enum(ROLES).optional(),
  password: password.optional(),
  disabled: z.boolean().optional(),
});

const listSpec: ListSpec<Prisma.UserWhereInput> = {
  resource: 'users',
  sortFields: ['email', 'name', 'role', 'createdAt', 'id'],
  defaultSort: ['email', 'asc'],
  tieBreaker: 'id',
  filters: { id: uuidFilter('id'), tenantId: uuidFilter('tenantId'), role: enumFilter('role', ROLES), q: textContainsFilter('email') },
};

/**
 * Console users. Owners and admins manage their tenant's users (an admin cannot touch owners),
 * platform admins manage everyone; nobody changes their own role, disables or deletes themselves.
 */
@ApiTags('console admin')
@Controller('v1/admin/users')
@UseGuards(AdminAuthGuard)
export class UsersController {
  constructor(private readonly prisma: PrismaService) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: "Users of the tenant (all for platform admins), simple-REST; never password hashes" })
  @Answers({ status: 200, description: 'One page of users; the total is in Content-Range.', schema: z.array(userRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<UserRecord[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, listSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.user.findMany({ where: scoped, orderBy, skip, take, select: userSelect }), tx.user.count({ where: scoped })]),
    );
    return listReply(reply, 'users', skip, rows, total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One user' })
  @Answers({ status: 200, description: 'The user.', schema: userRecord })
  getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<UserRecord> {
    return this.find(user, id);
  }

  @Post()
  @ApiResponse({ status: 409, description: '`already-exists`: a user with this email exists.' })
  @Roles(...USER_MANAGERS)
  @ApiOperation({ summary: 'Create a user with a role and an initial password' })
  @Answers({ status: 201, description: 'The new user.', schema: userRecord })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createBody)) body: z.infer<typeof createBody>): Promise<UserRecord> {
    assertMayManage(user, body.role);
    let tenantId: string | null = null;
    if (body.role === 'platform_admin') {
      if (body.tenantId !== undefined) throw new BadRequestError('invalid-tenant', 'Platform admins belong to no tenant; leave "tenantId" out.');
    } else {
      tenantId = targetTenant(user, body.tenantId);
    }
    const passwordHash = await hashPassword(body.password);
    try {
      return await adminTransaction(this.prisma, user, async (tx) => {
        if (tenantId && !(await tx.tenant.findUnique({ where: { id: tenantId }, select: { id: true } }))) {
          throw new ResourceNotFoundError('tenant', tenantId);
        }
        const row = await tx.user.create({ data: { tenantId, email: body.email, name: body.name, role: body.role, passwordHash }, select: userSelect });
        await recordAudit(tx, user, { action: 'user.create', entityType: 'user', entityId: row.id, tenantId, after: row });
        return row;
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw new AlreadyExistsError('user with the email', body.email);
      throw err;
    }
  }

  @Put(':id')
  @Roles(...USER_MANAGERS)
  @ApiOperation({ summary: 'Rename, change role, reset password, disable or enable a user' })
  @Answers({ status: 200, description: 'The saved user.', schema: userRecord })
  async update(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(updateBody)) body: z.infer<typeof updateBody>): Promise<UserRecord> {
    const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      assertMayManage(user, before.role);
      if (body.role !== undefined && body.role !== before.role) {
        if (id === user.id) throw new SelfChangeError('change the role of');
        assertMayManage(user, body.role);
        if ((body.role === 'platform_admin') !== (before.role === 'platform_admin')) {
          throw new BadRequestError('invalid-role-change', 'Platform admins live outside tenants: create a new user instead of moving one in or out.');
        }
      }
      if (body.disabled === true && id === user.id) throw new SelfChangeError('disable');
      const after = await tx.user.update({
        where: { id },
        data: {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.role !== undefined && { role: body.role }),
          ...(passwordHash !== undefined && { passwordHash }),
          ...(body.disabled !== undefined && { disabledAt: body.disabled ? (before.disabledAt ?? new Date()) : null }),
        },
        select: userSelect,
      });
      await recordAudit(tx, user, {
        action: 'user.update',
        entityType: 'user',
        entityId: id,
        tenantId: after.tenantId,
        before,
        after: { ...after, ...(passwordHash !== undefined && { password: 'changed' }) },
      });
      return after;
    });
  }

  @Delete(':id')
  @Roles(...USER_MANAGERS)
  @ApiOperation({ summary: 'Delete a user (their audit entries stay, without the actor link)' })
  @Answers({ status: 200, description: 'The deleted user.', schema: userRecord })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<UserRecord> {
    if (id === user.id) throw new SelfChangeError('delete');
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      assertMayManage(user, before.role);
      await tx.user.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'user.delete', entityType: 'user', entityId: id, tenantId: before.tenantId, before });
      return before;
    });
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.user.findFirst({ where: { id, ...tenantScope(user) }, select: userSelect }) : null;
    if (!row) throw new ResourceNotFoundError('user', id);
    return row;
  }
}
