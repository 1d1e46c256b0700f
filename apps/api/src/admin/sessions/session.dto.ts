import type { Session } from '@switchboard/db';

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
