import type { Prisma } from '@switchboard/db';
import { dateBoundFilter, enumFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';

export const DELIVERY_STATUSES = ['pending', 'failed', 'dead', 'delivered'] as const;

export const deliveriesListSpec: ListSpec<Prisma.DeliveryWhereInput> = {
  resource: 'deliveries',
  sortFields: ['createdAt', 'updatedAt', 'nextAttemptAt', 'deliveredAt', 'status', 'attempts', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    channelId: uuidFilter('channelId'),
    messageId: uuidFilter('messageId'),
    // The session is the reply's: deliveries carry no session column of their own.
    sessionId: (value) => ({ message: uuidFilter('sessionId')(value) }),
    status: enumFilter('status', DELIVERY_STATUSES),
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
  },
};

export const deliverySelect = {
  id: true,
  tenantId: true,
  channelId: true,
  messageId: true,
  url: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  lastStatusCode: true,
  lastError: true,
  deliveredAt: true,
  createdAt: true,
  updatedAt: true,
  message: { select: { sessionId: true } },
} as const;

type DeliveryRow = Prisma.DeliveryGetPayload<{ select: typeof deliverySelect }>;

/** A webhook delivery as the console reads it: the reply's session beside it, the URL without credentials. */
export interface DeliveryDto extends Omit<DeliveryRow, 'message'> {
  sessionId: string;
}

export function toDeliveryDto({ message, url, ...rest }: DeliveryRow): DeliveryDto {
  return { ...rest, url: withoutCredentials(url), sessionId: message.sessionId };
}

/**
 * A webhook URL may carry basic-auth credentials (https://user:pass@host/...). The signing
 * secret is never part of a delivery, but those would be a secret too: they are masked.
 */
export function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (!u.username && !u.password) return url;
    u.username = '***';
    u.password = '';
    return u.toString();
  } catch {
    return url;
  }
}
