import type { Session } from '@switchboard/db';
import type { LastTurnFailure } from './last-turn-failure';

/** A session as the console reads it; the engine's state blob stays server-side. */
export interface SessionDto {
  id: string;
  tenantId: string;
  channelId: string;
  agentId: string;
  externalKey: string;
  status: Session['status'];
  /** What a widget visitor's page said about them (identify()), as given: never trusted. */
  visitorContext: Session['visitorContext'];
  version: number;
  lastMessageAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A row of the sessions list: the session and, when its newest turn failed or was deferred, why. */
export interface SessionListItemDto extends SessionDto {
  lastTurnFailure: LastTurnFailure | null;
}

export const sessionSelect = {
  id: true,
  tenantId: true,
  channelId: true,
  agentId: true,
  externalKey: true,
  status: true,
  visitorContext: true,
  version: true,
  lastMessageAt: true,
  createdAt: true,
  updatedAt: true,
} as const;
