/** One customer message from a platform, mapped to the ingest every channel shares. */
export interface PlatformMessage {
  /** The platform's own id of the event (Telegram update_id, WhatsApp message id, Chatwoot message id): the message `id`. */
  id: string;
  /** The platform's conversation address (chat id, phone number, conversation id): the session key. */
  session: string;
  /** The text, or a short description of what is not text ("[image] caption"). */
  text: string;
  /** The platform's reference to what is not text (file id, URL, coordinates), kept on the message. */
  media?: Record<string, unknown>;
}

/** What a platform sent, as far as the bot is concerned. */
export type InboundVerdict =
  | { kind: 'messages'; messages: PlatformMessage[] }
  /** A handshake or a request that is answered with this exact body. */
  | { kind: 'answer'; body: { challenge: string } }
  /** Acknowledged and not stored: the bot's own messages, edits, receipts, unknown shapes; why, for the log. */
  | { kind: 'ignored'; reason: string }
  /** The platform hands the conversation back to the bot (Chatwoot). */
  | { kind: 'hand-back'; session: string };

/** Joins a media description and its caption: "[image] Olha isso". */
export function describe(label: string, caption: string | undefined | null): string {
  const c = caption?.trim();
  return c ? `[${label}] ${c}` : `[${label}]`;
}
