import type { FastifyReply } from 'fastify';
import { BadRequestError } from '../common/errors';
import type { SessionStream, StreamedEvent } from './open-session-stream.usecase';
import { sseComment, sseEvent } from './sse-format';
import { parseCursor, type StreamCursor } from './stream-cursor';

/** A comment line this often keeps idle streams open through proxies (most cut at 30-60 s). */
export const SSE_HEARTBEAT_MS = 15_000;

/** The resume point of a reconnecting client (`Last-Event-ID`), or undefined for a fresh one. */
export function resumePoint(header: string | string[] | undefined): StreamCursor | undefined {
  if (header === undefined || header === '') return undefined;
  const cursor = typeof header === 'string' ? parseCursor(header.trim()) : null;
  if (!cursor) {
    throw new BadRequestError('invalid-last-event-id', 'Last-Event-ID must be the id of an event this stream sent (e.g. "42-40"); leave it out to start from now.');
  }
  return cursor;
}

/**
 * Answers a request with a session's events as Server-Sent Events: opens the stream (errors such
 * as 404 or 503 are thrown before anything is written, so they get the usual JSON answer), then
 * takes the socket over, writes the headers, the events and a heartbeat, and cleans up when the
 * client or the server goes away.
 */
export async function sendSessionEvents(reply: FastifyReply, open: (onEvent: (e: StreamedEvent) => void) => Promise<SessionStream>): Promise<void> {
  const raw = reply.raw;
  // Events that arrive between the subscription and the headers are queued, not lost.
  let pending: string[] | null = [];
  const write = (chunk: string) => (pending ? pending.push(chunk) : raw.write(chunk));
  const stream = await open(({ event, id }) => write(sseEvent(event, id)));

  let heartbeat: NodeJS.Timeout | undefined;
  const end = () => {
    clearInterval(heartbeat);
    stream.close();
    stream.released.removeEventListener('abort', end);
    if (!raw.writableEnded) raw.end();
  };
  raw.once('close', end);
  stream.released.addEventListener('abort', end, { once: true });

  // From here on we own the socket: Nest/Fastify must not send a reply of their own. Headers
  // already set by hooks (request id, CORS, security) are carried over.
  reply.hijack();
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx would buffer the stream otherwise.
    'x-accel-buffering': 'no',
  });
  raw.write(sseComment('connected'));
  const queued = pending;
  pending = null;
  for (const chunk of queued) raw.write(chunk);
  heartbeat = setInterval(() => raw.write(sseComment('ping')), SSE_HEARTBEAT_MS);
  if (stream.released.aborted || raw.destroyed) end();
}
