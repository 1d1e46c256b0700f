import type { Message } from '@switchboard/db';
import { z } from 'zod';
import { messageSeq } from '../../messages/messages.schemas';

/** A message as the console reads it (the OpenAPI document's schema). `seq` is a decimal string, as on every route. */
export const messageRecord = z.object({
  id: z.uuid(),
  seq: messageSeq,
  tenantId: z.uuid(),
  sessionId: z.uuid(),
  channelId: z.uuid(),
  direction: z.enum(['inbound', 'outbound']),
  status: z.enum(['queued', 'answered', 'sent', 'failed']),
  text: z.string(),
  externalId: z.string().nullable(),
  kind: z.string().nullable(),
  turnId: z.string().nullable(),
  createdAt: z.iso.datetime(),
  answeredAt: z.iso.datetime().nullable(),
});
export type MessageDto = z.infer<typeof messageRecord>;

export function toMessageDto(m: Message): MessageDto {
  return {
    id: m.id,
    seq: m.seq.toString(),
    tenantId: m.tenantId,
    sessionId: m.sessionId,
    channelId: m.channelId,
    direction: m.direction,
    status: m.status,
    text: m.text,
    externalId: m.externalId,
    kind: m.kind,
    turnId: m.turnId,
    createdAt: m.createdAt.toISOString(),
    answeredAt: m.answeredAt?.toISOString() ?? null,
  };
}
