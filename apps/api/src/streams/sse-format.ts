
// The Server-Sent Events wire format (WHATWG HTML §9.2): `event:` names the type, `id:` sets the
// client's last event id (sent back as Last-Event-ID when it reconnects), `data:` carries one
// line of JSON, a blank line ends the event; a line starting with ':' is a comment.

/** A session event as one SSE event: `delta` → `{ turnId, delta }`, `committed` → `{ turnId, answered, replies }`. */
export function sseEvent(event: { type: string }, id?: string): string {
  const { type, ...data } = event;
  // JSON.stringify never emits a raw newline, so the payload always fits one `data:` line.
  return `event: ${type}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: keeps proxies and load balancers from closing an idle stream. */
export function sseComment(text: string): string {
  return `: ${text}\n\n`;
}
