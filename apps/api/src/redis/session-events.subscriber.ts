import { Logger, type OnModuleDestroy } from '@nestjs/common';
import type { Env } from '@switchboard/config';
import { createRedisClient, type RedisClient, type SessionEvent } from '@switchboard/queue';
import { withTimeout } from '../common/with-timeout';

export type SessionEventListener = (event: SessionEvent) => void;

/** How long a SUBSCRIBE may take before the caller gives up waiting (Redis down or slow). */
const SUBSCRIBE_TIMEOUT_MS = 2000;

/**
 * One subscriber connection per process, shared by every waiting request: a map from channel
 * to listeners, subscribing on the first listener of a channel, unsubscribing after the last.
 * Redis pub/sub in production (RedisSessionEventsSubscriber), LISTEN/NOTIFY in Postgres mode
 * (PostgresSessionEventsSubscriber); the injection token is this class.
 */
export abstract class SessionEventsSubscriber implements OnModuleDestroy {
  protected readonly logger = new Logger(SessionEventsSubscriber.name);
  protected readonly listeners = new Map<string, Set<SessionEventListener>>();
  private readonly releasing = new AbortController();

  /** Aborted when the process shuts down: waiting requests stop waiting and answer at once. */
  get released(): AbortSignal {
    return this.releasing.signal;
  }

  /** Subscribes the shared connection to `channel`; resolves once the server confirmed it. */
  protected abstract subscribe(channel: string): Promise<void>;
  protected abstract unsubscribe(channel: string): Promise<void>;
  protected abstract close(): Promise<void>;

  /**
   * Resolves once the subscription is confirmed, so nothing published afterwards is missed.
   * Returns the function that removes the listener. Rejects if the server does not answer in time.
   */
  async listen(channel: string, listener: SessionEventListener): Promise<() => void> {
    let set = this.listeners.get(channel);
    const first = !set;
    if (!set) {
      set = new Set();
      this.listeners.set(channel, set);
    }
    set.add(listener);
    const remove = () => this.remove(channel, listener);
    try {
      // A second listener of a channel still waits for the first SUBSCRIBE: re-sending it is
      // cheap and idempotent, and it guarantees this caller is subscribed when it resolves.
      await withTimeout(this.subscribe(channel), SUBSCRIBE_TIMEOUT_MS, `SUBSCRIBE ${channel}`);
    } catch (err) {
      remove();
      throw err;
    }
    if (first) this.logger.debug({ channel }, 'subscribed');
    return remove;
  }

  private remove(channel: string, listener: SessionEventListener): void {
    const set = this.listeners.get(channel);
    if (!set?.delete(listener) || set.size > 0) return;
    this.listeners.delete(channel);
    this.unsubscribe(channel).catch((err: Error) => this.logger.warn({ err: err.message, channel }, 'unsubscribe failed'));
  }

  /** Hands a received payload to the channel's listeners. */
  protected dispatch(channel: string, payload: string): void {
    const set = this.listeners.get(channel);
    if (!set) return;
    let event: SessionEvent;
    try {
      event = JSON.parse(payload) as SessionEvent;
    } catch {
      this.logger.warn({ channel }, 'ignoring a session event that is not JSON');
      return;
    }
    this.deliver(channel, event);
  }

  protected deliver(channel: string, event: SessionEvent): void {
    for (const listener of [...(this.listeners.get(channel) ?? [])]) {
      try {
        listener(event);
      } catch (err) {
        // One bad event or listener must not break the shared connection's other listeners.
        this.logger.warn({ err: (err as Error).message, channel }, 'session event listener failed');
      }
    }
  }

  /** Tells every waiting request to answer now (shutdown drains them before closing). */
  releaseWaiters(): void {
    this.releasing.abort();
  }

  async onModuleDestroy(): Promise<void> {
    this.releaseWaiters();
    this.listeners.clear();
    await this.close();
  }
}

/** Redis pub/sub: one subscriber-mode ioredis connection. */
export class RedisSessionEventsSubscriber extends SessionEventsSubscriber {
  private readonly redis: RedisClient;

  constructor(env: Pick<Env, 'REDIS_URL'>) {
    super();
    this.redis = createRedisClient(env.REDIS_URL, { maxRetriesPerRequest: null });
    this.redis.on('error', (err) => this.logger.warn({ err: err.message }, 'subscriber connection error'));
    this.redis.on('message', (channel: string, payload: string) => this.dispatch(channel, payload));
  }

  protected async subscribe(channel: string): Promise<void> {
    await this.redis.subscribe(channel);
  }

  protected async unsubscribe(channel: string): Promise<void> {
    await this.redis.unsubscribe(channel);
  }

  protected async close(): Promise<void> {
    this.redis.disconnect();
  }
}
