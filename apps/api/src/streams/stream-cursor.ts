// Where a session stream stands, sent as each `committed` event's SSE `id` and read back from
// `Last-Event-ID` when a client reconnects: the highest seq of the replies it was sent, and of
// the customer messages it was told were answered. Two numbers because a turn answers messages
// that arrived before earlier replies were written (seq is the arrival order of rows); replies
// and answered messages each settle in order, so each part is a clean "everything up to here".

export interface StreamCursor {
  /** Every visible reply with seq <= this was sent. */
  reply: bigint;
  /** Every answered customer message with seq <= this was reported. */
  inbound: bigint;
}

const FORMAT = /^(\d{1,18})-(\d{1,18})$/;

export function formatCursor(c: StreamCursor): string {
  return `${c.reply}-${c.inbound}`;
}

/** The cursor of a `Last-Event-ID`, or null when it is not one of ours. */
export function parseCursor(text: string): StreamCursor | null {
  const m = FORMAT.exec(text);
  return m ? { reply: BigInt(m[1]), inbound: BigInt(m[2]) } : null;
}
