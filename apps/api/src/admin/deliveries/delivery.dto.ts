import { maskUrlCredentials } from '@switchboard/outbound';
import type { Prisma } from '@switchboard/db';
import { FALLBACK_MESSAGE_KIND } from '@switchboard/webhooks';
import { dateBoundFilter, enumFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';
import { DeliveryStatus } from '@switchboard/db';
import { z } from 'zod';

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
    // A reply's session is its message's; an event that is not a reply carries its own.
    sessionId: (value) => {
      const session = uuidFilter('sessionId')(value);
      return { OR: [session, { message: session }] };
    },
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
  sessionId: true,
  payload: true,
  message: { select: { sessionId: true, kind: true } },
} as const;

type DeliveryRow = Prisma.DeliveryGetPayload<{ select: typeof deliverySelect }>;

/**
 * A webhook delivery as the console reads it: its event type, its session (a reply's is its
 * message's), the URL without credentials. The payload itself is not shown: a reply's is its message.
 */
export const deliveryRecord = z.object({
  id: z.uuid(),
  tenantId: z.uuid(),
  channelId: z.uuid(),
  /** The reply's message; null for events that are not a message (session.handed_off, ...). */
  messageId: z.uuid().nullable(),
  /** Credentials in the URL are masked (https://***@host/). */
  url: z.string(),
  status: z.enum(DeliveryStatus),
  attempts: z.number().int(),
  nextAttemptAt: z.date().nullable(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  deliveredAt: z.date().nullable(),
  createdAt: z.date(),
  updatedAt: z.date(),
  /** The event type the receiver gets (`message.reply`, `message.fallback`, `session.handed_off`, ...). */
  type: z.string(),
  sessionId: z.string().describe("The session's id (a reply's is its message's); empty when it is gone."),
});
export type DeliveryDto = z.infer<typeof deliveryRecord>;

export function toDeliveryDto({ message, url, sessionId, payload, ...rest }: DeliveryRow): DeliveryDto {
  return {
    ...rest,
    type: deliveryType(message?.kind ?? null, payload),
    url: withoutCredentials(url),
    sessionId: message?.sessionId ?? sessionId ?? '',
  };
}

function deliveryType(kind: string | null, payload: unknown): string {
  const stored = (payload as { type?: unknown } | null)?.type;
  if (typeof stored === 'string') return stored;
  return kind === FALLBACK_MESSAGE_KIND ? 'message.fallback' : 'message.reply';
}

/**
 * A webhook URL stored before user:pass@ was refused at save may still carry them; a delivery
 * copied it, so it is masked here too (the same masking as everywhere, @switchboard/outbound).
 */
export const withoutCredentials = maskUrlCredentials;
