import { Injectable } from '@nestjs/common';
import { PrismaService, withTenant } from '@switchboard/db';
import { PinoLogger } from 'nestjs-pino';
import type { ChannelScope } from '../channel-auth/channel-auth.context';

/**
 * The platform's people are done (Chatwoot set the conversation back to the bot): the session
 * becomes `active` again and the bot answers from the next message on, as after the console's
 * hand-back (whoever had taken it over in the console's inbox no longer does). Nothing is sent
 * back to the platform — it made the change.
 */
@Injectable()
export class HandBackFromPlatform {
  constructor(
    private readonly prisma: PrismaService,
    private readonly logger: PinoLogger,
  ) {}

  async execute(scope: ChannelScope, sessionKey: string): Promise<boolean> {
    const moved = await withTenant(this.prisma, scope.tenantId, (tx) =>
      tx.session.updateMany({ where: { channelId: scope.channelId, externalKey: sessionKey, status: 'handed_off' }, data: { status: 'active', takenOverById: null } }),
    );
    if (moved.count > 0) this.logger.info({ msg: 'session handed back by the platform', channelId: scope.channelId, session: sessionKey });
    return moved.count > 0;
  }
}
