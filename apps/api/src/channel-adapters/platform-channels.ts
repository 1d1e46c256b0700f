import { Injectable } from '@nestjs/common';
import { isUuid, PrismaService, type Prisma } from '@switchboard/db';
import { readAdapterSettings, type AdapterKind, type AdapterSecrets, type AdapterSettings } from '@switchboard/webhooks';
import { SECRET_CONTEXTS, SecretBox } from '../admin/common/secret-box';

/** A platform channel as its inbound route needs it: scope, settings and opened credentials. */
export interface PlatformChannel<K extends AdapterKind = AdapterKind> {
  kind: K;
  channelId: string;
  tenantId: string;
  agentId: string;
  settings: AdapterSettings<K>;
  secrets: AdapterSecrets[K];
}

/** Finds a channel of one adapter kind by id and opens its credentials; null when there is none. */
@Injectable()
export class PlatformChannels {
  constructor(
    private readonly prisma: PrismaService,
    private readonly secrets: SecretBox,
  ) {}

  async find<K extends AdapterKind>(kind: K, channelId: string): Promise<PlatformChannel<K> | null> {
    if (!isUuid(channelId)) return null;
    const row = await this.prisma.channel.findFirst({
      where: { id: channelId, kind: kind as Prisma.ChannelWhereInput['kind'] },
      select: { id: true, tenantId: true, agentId: true, settings: true, secretsEncrypted: true },
    });
    if (!row?.secretsEncrypted) return null;
    return {
      kind,
      channelId: row.id,
      tenantId: row.tenantId,
      agentId: row.agentId,
      settings: readAdapterSettings(kind, row.settings),
      secrets: JSON.parse(this.secrets.decrypt(row.secretsEncrypted, SECRET_CONTEXTS.channelSecrets(row.tenantId))) as AdapterSecrets[K],
    };
  }
}
