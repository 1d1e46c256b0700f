import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { agentTemplates, type AgentTemplate } from '@switchboard/agent-config';
import { PrismaService, withTenant } from '@switchboard/db';
import { z } from 'zod';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { READERS } from '../common/admin-roles';
import { targetTenant } from '../common/tenant-target';
import { firstSteps, type FirstStepsDto } from './first-steps';
import { Answers } from '../../docs/answer.decorator';
import { agentTemplateAnswer, firstStepsAnswer } from './first-steps';

/** What a new tenant needs to get going: its checklist and the agent templates to start from. */
@ApiTags('console admin')
@Controller('v1/admin')
@UseGuards(AdminAuthGuard)
export class FirstStepsController {
  constructor(private readonly prisma: PrismaService) {}

  @Get('first-steps')
  @Roles(...READERS)
  @ApiOperation({ summary: "The tenant's first-run checklist (agent, channel, test message, inbox), each ticked from its rows (platform admins: ?tenantId= or X-Tenant-Id)" })
  @Answers({ status: 200, description: 'The checklist.', schema: firstStepsAnswer })
  get(
    @CurrentUser() user: AdminUser,
    @Query(new ZodValidationPipe(z.strictObject({ tenantId: z.string().optional() }), 'query')) query: { tenantId?: string },
  ): Promise<FirstStepsDto> {
    const tenantId = targetTenant(user, query.tenantId);
    // Under row-level security even for a platform admin: the checklist is of one tenant.
    return withTenant(this.prisma, tenantId, (tx) => firstSteps(tx, tenantId));
  }

  @Get('agent-templates')
  @Roles(...READERS)
  @ApiOperation({ summary: 'Agent templates (Concierge, FAQ bot, lead capture): complete configs to create an agent from' })
  @Answers({ status: 200, description: 'The templates.', schema: z.array(agentTemplateAnswer) })
  templates(): readonly AgentTemplate[] {
    return agentTemplates;
  }
}
