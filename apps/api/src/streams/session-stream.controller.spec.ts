import { EventEmitter } from 'node:events';
import type { FastifyReply } from 'fastify';
import type { SessionEvent } from '@switchboard/queue';
import type { ChannelAuthContext } from '../channel-auth/channel-auth.context';
import type { OpenSessionStream, StreamedEvent } from './open-session-stream.usecase';
import { SessionStreamController, SSE_HEARTBEAT_MS } from './session-stream.controller';

// The controller's socket handling with a stand-in reply and fake timers: the heartbeat, events
// that arrive before the headers, and the clean-up when the client or the server goes away.

class FakeRaw extends EventEmitter {
  chunks: string[] = [];
  head?: { status: number; headers: Record<string, string> };
  writableEnded = false;
  destroyed = false;
  writeHead(status: number, headers: Record<string, string>) {
    this.head = { status, headers };
  }
  write(chunk: string) {
    this.chunks.push(chunk);
    return true;
  }
  end() {
    this.writableEnded = true;
  }
}

function setup() {
  const raw = new FakeRaw();
  const reply = { raw, hijack: jest.fn(), getHeaders: () => ({ 'x-request-id': 'r1' }) } as unknown as FastifyReply;
  const released = new AbortController();
  const close = jest.fn();
  let emit!: (e: SessionEvent) => void;
  const open = {
    execute: jest.fn(async (_auth: ChannelAuthContext, _id: string, onEvent: (e: StreamedEvent) => void) => {
      emit = (event) => onEvent(event.type === 'committed' ? { event, id: '7-5' } : { event });
      // Published while the headers are not written yet: must be sent right after them.
      onEvent({ event: { type: 'delta', turnId: 't1', delta: 'A diá' } });
      return { released: released.signal, close };
    }),
  } as unknown as OpenSessionStream;
  const controller = new SessionStreamController(open);
  const auth = { tenantId: 'tenant-1' } as ChannelAuthContext;
  return { raw, reply, released, close, controller, auth, emit: (e: SessionEvent) => emit(e) };
}

describe('SessionStreamController', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('writes SSE headers, early events, live events and a heartbeat every 15 s', async () => {
    const s = setup();
    await s.controller.stream(s.auth, { sessionId: 'sess' }, undefined, s.reply);
    expect(s.reply.hijack).toHaveBeenCalled();
    expect(s.raw.head).toEqual({
      status: 200,
      headers: expect.objectContaining({ 'x-request-id': 'r1', 'content-type': 'text/event-stream; charset=utf-8' }),
    });
    s.emit({ type: 'committed', turnId: 't1', answered: ['m1'], replies: [{ id: 'o1', text: 'A diária' }] });
    expect(s.raw.chunks).toEqual([
      ': connected\n\n',
      'event: delta\ndata: {"turnId":"t1","delta":"A diá"}\n\n',
      'event: committed\nid: 7-5\ndata: {"turnId":"t1","answered":["m1"],"replies":[{"id":"o1","text":"A diária"}]}\n\n',
    ]);
    jest.advanceTimersByTime(SSE_HEARTBEAT_MS * 2);
    expect(s.raw.chunks.slice(3)).toEqual([': ping\n\n', ': ping\n\n']);
  });

  it('unsubscribes and stops the heartbeat when the client disconnects', async () => {
    const s = setup();
    await s.controller.stream(s.auth, { sessionId: 'sess' }, undefined, s.reply);
    s.raw.emit('close');
    expect(s.close).toHaveBeenCalledTimes(1);
    const written = s.raw.chunks.length;
    jest.advanceTimersByTime(SSE_HEARTBEAT_MS * 3);
    expect(s.raw.chunks).toHaveLength(written);
  });

  it('ends the stream when the API shuts down', async () => {
    const s = setup();
    await s.controller.stream(s.auth, { sessionId: 'sess' }, undefined, s.reply);
    s.released.abort();
    expect(s.raw.writableEnded).toBe(true);
    expect(s.close).toHaveBeenCalledTimes(1);
  });

  it('passes Last-Event-ID on as the resume point, and refuses one it never sent (400 invalid-last-event-id)', async () => {
    const s = setup();
    await s.controller.stream(s.auth, { sessionId: 'sess' }, '42-40', s.reply);
    expect((s.controller as unknown as { openStream: { execute: jest.Mock } }).openStream.execute.mock.calls[0][3]).toEqual({ after: { reply: 42n, inbound: 40n } });
    await expect(s.controller.stream(s.auth, { sessionId: 'sess' }, 'yesterday', s.reply)).rejects.toMatchObject({ status: 400, code: 'invalid-last-event-id' });
  });
});
