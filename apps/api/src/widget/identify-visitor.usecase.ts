import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService, withTenant } from '@switchboard/db';
import type { VisitorContext } from './visitor.guard';
import type { IdentifyBody } from './widget.schemas';

/** How Session.visitorContext is stored: the values, marked as what the visitor's page said. */
export interface StoredVisitorContext {
  givenBy: 'visitor';
  at: string;
  values: IdentifyBody;
}

/**
 * `Switchboard.identify({ name, email, ... })`: kept on the visitor's session (created if the
 * conversation has not begun) as Session.visitorContext, replacing what was there. It is what a
 * web page claims about its visitor, so it is shown to people in the console and never used to
 * decide what anyone may do.
 */
@Injectable()
export class IdentifyVisitor {
  constructor(private readonly prisma: PrismaService) {}

  async execute(v: VisitorContext, values: IdentifyBody): Promise<{ identified: true }> {
    const context: StoredVisitorContext = { givenBy: 'visitor', at: new Date().toISOString(), values };
    const json = context as unknown as Prisma.InputJsonValue;
    await withTenant(this.prisma, v.tenantId, (tx) =>
      tx.session.upsert({
        where: { channelId_externalKey: { channelId: v.channelId, externalKey: v.sessionKey } },
        create: { tenantId: v.tenantId, channelId: v.channelId, agentId: v.channel.agentId, externalKey: v.sessionKey, visitorContext: json },
        update: { visitorContext: json },
        select: { id: true },
      }),
    );
    return { identified: true };
  }
}
