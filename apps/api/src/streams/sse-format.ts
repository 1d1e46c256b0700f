import type { SessionEvent } from '@switchboard/queue';

// The Server-Sent Events wire format (WHATWG HTML §9.2): `event:` names the type, `data:` carries
// one line of JSON, a blank line ends the event; a line starting with ':' is a comment.

/** A session event as one SSE event: `delta` → `{ turnId, delta }`, `committed` → `{ turnId, answered, replies }`. */
export function sseEvent(event: SessionEvent): string {
  const { type, ...data } = event;
  // JSON.stringify never emits a raw newline, so the payload always fits one `data:` line.
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies and load balancers from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}
