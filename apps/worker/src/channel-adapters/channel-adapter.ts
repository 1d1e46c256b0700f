import type { AdapterKind } from '@switchboard/webhooks';
import type { SendOutcome } from './platform-call';

/** What an adapter gets to send one part of a reply. */
export interface ReplyContext<Settings = unknown, Secrets = unknown> {
  tenantId: string;
  channelId: string;
  sessionId: string;
  /** The session key: the platform's conversation address (chat id, phone number, conversation id). */
  sessionKey: string;
  settings: Settings;
  secrets: Secrets;
  allowedHosts: ReadonlySet<string>;
  /** When the customer last wrote in this session (WhatsApp's 24-hour window). */
  lastInboundAt: Date | null;
}

/** The session events adapters may act on (stored events that are not replies). */
export type SessionEventType = 'session.handed_off' | 'session.handed_back';

/**
 * One platform behind one interface (docs/channels.md), marked with @ChannelAdapterFor and found
 * at start-up: the dispatcher hands it replies and session events; the set-up processor
 * connects and disconnects it.
 */
export interface ChannelAdapter<Settings = unknown, Secrets = unknown> {
  readonly kind: AdapterKind;
  /** The platform's length limit for one message, in characters. */
  readonly maxChars: number;
  /** The engine's markdown in the platform's formatting. Applied to each part after splitting. */
  format(markdown: string): string;
  /**
   * Decides, before any part is sent, that the reply cannot go as it is and what happens instead
   * (WhatsApp outside its 24-hour window: a template, or a dead letter); null: send the reply.
   */
  instead?(ctx: ReplyContext<Settings, Secrets>): Promise<SendOutcome | null>;
  /** Sends one part. A part that needs no send (nothing to do) is `{ ok: true }`. */
  sendPart(ctx: ReplyContext<Settings, Secrets>, text: string): Promise<SendOutcome>;
  /** A hand-off or hand-back; adapters without a notion of it answer `{ ok: true }`. */
  sessionEvent(ctx: ReplyContext<Settings, Secrets>, type: SessionEventType): Promise<SendOutcome>;
  /** Registers the webhook at the platform, when the platform has an API for it; false when not. */
  connect?(settings: Settings, secrets: Secrets, webhookUrl: string, allowedHosts: ReadonlySet<string>): Promise<void>;
  disconnect?(settings: Settings, secrets: Secrets, allowedHosts: ReadonlySet<string>): Promise<void>;
}

export class PlatformSetupError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
