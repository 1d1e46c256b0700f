import type { Message } from '@switchboard/db';

/** A message as the console reads it. `seq` is a BigInt column; JSON gets it as a number. */
export interface MessageDto {
  id: string;
  seq: number;
  tenantId: string;
  sessionId: string;
  channelId: string;
  direction: Message['direction'];
  status: Message['status'];
  text: string;
  externalId: string | null;
  kind: string | null;
  turnId: string | null;
  createdAt: Date;
  answeredAt: Date | null;
}

export function toMessageDto(m: Message): MessageDto {
  return {
    id: m.id,
    seq: Number(m.seq),
    tenantId: m.tenantId,
    sessionId: m.sessionId,
    channelId: m.channelId,
    direction: m.direction,
    status: m.status,
    text: m.text,
    externalId: m.externalId,
    kind: m.kind,
    turnId: m.turnId,
    createdAt: m.createdAt,
    answeredAt: m.answeredAt,
  };
}
