import { ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Req, Res, UseGuards } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { PrismaService, type Prisma } from '@switchboard/db';
import { newWebhookSecret } from '@switchboard/webhooks';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ZodValidationPipe } from '../../common/validation/zod-validation.pipe';
import { ResourceNotFoundError, UnknownReferenceError } from '../admin-errors';
import { AdminAuthGuard } from '../auth/admin-auth.guard';
import type { AdminUser } from '../auth/admin-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { Roles } from '../auth/roles.decorator';
import { CONFIG_WRITERS, READERS } from '../common/admin-roles';
import { adminTransaction } from '../common/admin-transaction';
import { recordAudit } from '../common/audit';
import { refuseUrlCredentials, WEBHOOK_CREDENTIAL_FIX } from '../common/url-credentials';
import { listReply } from '../common/list-reply';
import { SECRET_CONTEXTS, SecretBox } from '../common/secret-box';
import { targetTenant } from '../common/tenant-target';
import { isUuid } from '../list-query/filters';
import { parseListQuery } from '../list-query/list-query';
import { tenantScope } from '../tenant-scope';
import {
  channelColumns,
  channelRecord,
  channelsListSpec,
  createChannelBody,
  createdChannel,
  deletedChannel,
  rotatedSecret,
  updatedChannel,
  rotateSecretBody,
  toChannelDto,
  updateChannelBody,
  type ChannelDto,
  type CreateChannelBody,
  type RotateSecretBody,
  type UpdateChannelBody,
} from './channel.dto';
import { SendTestDelivery, testDeliveryAnswer, type TestDeliveryAnswer } from './test-delivery.usecase';
import { z } from 'zod';
import { Answers } from '../../docs/answer.decorator';
import { ApiKeyCache } from '../../channel-auth/api-key-cache';
import { ENV } from '../../config/env.module';
import { WidgetChannels } from '../../widget/widget-channels';
import { newWidgetPublicId } from '../../widget/widget-public-id';
import { parseWidgetChannelSettings } from './widget-channel-settings';
import { PlatformChannelSetup } from '../../channel-adapters/platform-channel-setup';

/**
 * Channels: each belongs to one agent of its tenant, may have an outbound webhook URL, and has
 * a signing secret that is shown once (on create and on rotation) and stored encrypted. Webhooks
 * are signed the Standard Webhooks way (docs/webhooks.md).
 */
@ApiTags('console admin')
@Controller('v1/admin/channels')
@UseGuards(AdminAuthGuard)
export class ChannelsController {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
    private readonly verifiedKeys: ApiKeyCache,
    private readonly testDeliveries: SendTestDelivery,
    private readonly widgets: WidgetChannels,
    private readonly platforms: PlatformChannelSetup,
    @Inject(ENV) private readonly env: Env,
  ) {}

  @Get()
  @Roles(...READERS)
  @ApiOperation({ summary: 'Channels, simple-REST (filter {agentId, q, id, tenantId}); total in Content-Range' })
  @Answers({ status: 200, description: 'One page of channels; the total is in Content-Range.', schema: z.array(channelRecord) })
  async list(@CurrentUser() user: AdminUser, @Query() query: Record<string, unknown>, @Res({ passthrough: true }) reply: FastifyReply): Promise<ChannelDto[]> {
    const { where, orderBy, skip, take } = parseListQuery(query, channelsListSpec);
    const scoped = { AND: [tenantScope(user), ...where] };
    const [rows, total] = await adminTransaction(this.prisma, user, (tx) =>
      Promise.all([tx.channel.findMany({ where: scoped, orderBy, skip, take, select: channelColumns }), tx.channel.count({ where: scoped })]),
    );
    return listReply(reply, 'channels', skip, rows.map(toChannelDto), total);
  }

  @Get(':id')
  @Roles(...READERS)
  @ApiOperation({ summary: 'One channel (never its signing secret)' })
  @Answers({ status: 200, description: 'The channel (no secrets).', schema: channelRecord })
  async getOne(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<ChannelDto> {
    return toChannelDto(await this.find(user, id));
  }

  @Post()
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @ApiResponse({ status: 502, description: "`channel-setup-failed`: the platform refused the channel's setup (e.g. Telegram's setWebhook)." })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Create a channel for an agent; answers its webhook signing secret once (webhookSecret)' })
  @Answers({ status: 201, description: 'The new channel, with its signing secret this once.', schema: createdChannel })
  async create(@CurrentUser() user: AdminUser, @Body(new ZodValidationPipe(createChannelBody)) body: CreateChannelBody, @Req() req: FastifyRequest): Promise<z.infer<typeof createdChannel>> {
    const tenantId = targetTenant(user, body.tenantId);
    refuseUrlCredentials(body.webhookUrl, 'webhookUrl', WEBHOOK_CREDENTIAL_FIX);
    const secret = newWebhookSecret();
    const widget = body.kind === 'widget' ? { settings: parseWidgetChannelSettings(body.settings, this.env.NODE_ENV), publicId: newWidgetPublicId() } : null;
    const kind = body.kind;
    const platform = this.platforms.isPlatform(kind) ? this.platforms.forCreate(kind, tenantId, body.settings, body.secrets) : null;
    const created = await adminTransaction(this.prisma, user, async (tx) => {
      await this.assertAgent(tx, tenantId, body.agentId);
      const row = await tx.channel.create({
        data: {
          tenantId,
          agentId: body.agentId,
          name: body.name,
          kind: body.kind,
          ...(widget && { settings: widget.settings, publicId: widget.publicId }),
          webhookUrl: body.webhookUrl ?? null,
          ...(platform && { settings: platform.settings as Prisma.InputJsonValue, secretsEncrypted: platform.secretsEncrypted, webhookUrl: platform.webhookUrl }),
          webhookSecretEncrypted: this.secrets.encrypt(secret, SECRET_CONTEXTS.channelWebhook(tenantId)),
        },
        select: channelColumns,
      });
      const channel = toChannelDto(row);
      await recordAudit(tx, user, { action: 'channel.create', entityType: 'channel', entityId: row.id, tenantId, after: channel });
      return { ...channel, webhookSecret: secret };
    });
    if (!this.platforms.isPlatform(kind) || !platform) return created;
    // Telegram's webhook is registered now; a platform that refuses leaves no channel behind.
    const rollback = () => adminTransaction(this.prisma, user, (tx) => tx.channel.deleteMany({ where: { id: created.id } }));
    return { ...created, platform: await this.platforms.connect(kind, tenantId, created.id, req, platform.secretsMade, rollback) };
  }

  @Put(':id')
  @ApiResponse({ status: 422, description: '`url-credentials-not-allowed`: a URL carries a user name or password (details name the field).' })
  @ApiResponse({ status: 502, description: "`channel-setup-failed`: the platform refused the channel's setup (e.g. Telegram's setWebhook)." })
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Edit a channel: name, agent, webhook URL' })
  @Answers({ status: 200, description: 'The saved channel (and a platform\'s setup, when its credentials changed).', schema: updatedChannel })
  async update(
    @CurrentUser() user: AdminUser,
    @Param('id') id: string,
    @Body(new ZodValidationPipe(updateChannelBody)) body: UpdateChannelBody,
    @Req() req: FastifyRequest,
  ): Promise<z.infer<typeof updatedChannel>> {
    refuseUrlCredentials(body.webhookUrl, 'webhookUrl', WEBHOOK_CREDENTIAL_FIX);
    const updated = await adminTransaction(this.prisma, user, async (tx) => {
      const row = await this.find(user, id, tx);
      const before = toChannelDto(row);
      if (body.agentId !== undefined) await this.assertAgent(tx, before.tenantId, body.agentId);
      const settings = body.settings !== undefined && before.kind === 'widget' ? parseWidgetChannelSettings(body.settings, this.env.NODE_ENV) : undefined;
      const platform = this.platforms.isPlatform(before.kind)
        ? this.platforms.forUpdate(before.kind, before.tenantId, row.secretsEncrypted, body.settings, body.secrets)
        : null;
      const saved = await tx.channel.update({
        where: { id },
        data: {
          ...(body.name !== undefined && { name: body.name }),
          ...(body.agentId !== undefined && { agentId: body.agentId }),
          ...(body.webhookUrl !== undefined && { webhookUrl: body.webhookUrl }),
          ...(settings !== undefined && { settings }),
          ...(platform && { ...platform, settings: platform.settings as Prisma.InputJsonValue | undefined }),
        },
        select: channelColumns,
      });
      const after = toChannelDto(saved);
      await recordAudit(tx, user, { action: 'channel.update', entityType: 'channel', entityId: id, tenantId: before.tenantId, before, after });
      return after;
    });
    if (body.agentId !== undefined) this.verifiedKeys.forgetChannel(id); // cached keys carry the channel's agent
    this.widgets.forget(updated.publicId); // its origins, looks and agent as the widget's routes see them
    // New credentials or API root: the platform's webhook is registered again with them.
    if (this.platforms.isPlatform(updated.kind) && (body.settings !== undefined || body.secrets !== undefined)) {
      return { ...updated, platform: await this.platforms.connect(updated.kind, updated.tenantId, id, req) };
    }
    return updated;
  }

  @Post(':id/rotate-secret')
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      'Replace the webhook signing secret; the new one is in this answer only. The old one keeps signing beside it for `graceSeconds` (default 86400, 0 = not at all, at most 604800)',
  })
  @Answers({ status: 200, description: 'The new secret, this once.', schema: rotatedSecret })
  async rotateSecret(@CurrentUser() user: AdminUser, @Param('id') id: string, @Body(new ZodValidationPipe(rotateSecretBody)) body: RotateSecretBody): Promise<z.infer<typeof rotatedSecret>> {
    return adminTransaction(this.prisma, user, async (tx) => {
      const before = await this.find(user, id, tx);
      const secret = newWebhookSecret();
      // The replaced secret (still sealed, same tenant context) signs beside the new one until then.
      const keepOld = body.graceSeconds > 0 && before.webhookSecretEncrypted !== null;
      const previousExpiresAt = keepOld ? new Date(Date.now() + body.graceSeconds * 1000) : null;
      await tx.channel.update({
        where: { id },
        data: {
          webhookSecretEncrypted: this.secrets.encrypt(secret, SECRET_CONTEXTS.channelWebhook(before.tenantId)),
          webhookSecretPreviousEncrypted: keepOld ? before.webhookSecretEncrypted : null,
          webhookSecretPreviousExpiresAt: previousExpiresAt,
        },
      });
      await recordAudit(tx, user, {
        action: 'channel.rotate-secret',
        entityType: 'channel',
        entityId: id,
        tenantId: before.tenantId,
        after: { graceSeconds: body.graceSeconds, webhookSecretPreviousExpiresAt: previousExpiresAt },
      });
      return { id, webhookSecret: secret, webhookSecretPreviousExpiresAt: previousExpiresAt };
    });
  }

  @Post(':id/test-delivery')
  @ApiResponse({ status: 409, description: '`channel-has-no-webhook`: the channel has no webhook URL.' })
  @ApiResponse({ status: 502, description: '`test-delivery-failed`: the worker could not send it.' })
  @ApiResponse({ status: 504, description: '`test-delivery-timeout`: no worker answered in time.' })
  @HttpCode(200)
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({
    summary:
      "Send a signed `webhook.test` event to the channel's webhook URL from a worker (outbound guard included) and answer what the receiver said; 409 channel-has-no-webhook without a URL",
  })
  @Answers({ status: 200, description: 'What the receiver answered, or why no answer came (`ok: false`).', schema: testDeliveryAnswer })
  testDelivery(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<TestDeliveryAnswer> {
    return this.testDeliveries.run(user, id);
  }

  @Delete(':id')
  @Roles(...CONFIG_WRITERS)
  @ApiOperation({ summary: 'Delete a channel with its keys, sessions and messages' })
  @Answers({ status: 200, description: 'The deleted channel.', schema: deletedChannel })
  async remove(@CurrentUser() user: AdminUser, @Param('id') id: string): Promise<z.infer<typeof deletedChannel>> {
    const found = toChannelDto(await this.find(user, id));
    // The platform stops calling before the channel goes (Telegram's deleteWebhook).
    const platform = this.platforms.isPlatform(found.kind) ? await this.platforms.disconnect(found.kind, found.tenantId, id) : undefined;
    const removed = await adminTransaction(this.prisma, user, async (tx) => {
      const before = toChannelDto(await this.find(user, id, tx));
      await tx.channel.delete({ where: { id } });
      await recordAudit(tx, user, { action: 'channel.delete', entityType: 'channel', entityId: id, tenantId: before.tenantId, before });
      return before;
    });
    this.verifiedKeys.forgetChannel(id); // its keys are gone with it
    this.widgets.forget(removed.publicId);
    return platform ? { ...removed, platform } : removed;
  }

  private async assertAgent(tx: Prisma.TransactionClient, tenantId: string, agentId: string): Promise<void> {
    const agent = await tx.agent.findFirst({ where: { id: agentId, tenantId }, select: { id: true, archivedAt: true } });
    if (!agent) throw new UnknownReferenceError('unknown-agent', `agentId "${agentId}" names no agent of this tenant.`, ['agentId']);
    if (agent.archivedAt) throw new UnknownReferenceError('agent-archived', `agentId "${agentId}" names an archived agent; restore it first.`, ['agentId']);
  }

  private async find(user: AdminUser, id: string, db: Prisma.TransactionClient = this.prisma) {
    const row = isUuid(id) ? await db.channel.findFirst({ where: { id, ...tenantScope(user) }, select: channelColumns }) : null;
    if (!row) throw new ResourceNotFoundError('channel', id);
    return row;
  }
}
