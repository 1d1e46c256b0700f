import type { Env } from '@switchboard/config';
import type { PrismaService } from '@switchboard/db';
import type { SessionEvent } from '@switchboard/queue';
import { Client, escapeIdentifier } from 'pg';
import { SessionEventsSubscriber } from './session-events.subscriber';

/** Wait before opening a new LISTEN connection after the last one broke. */
const RECONNECT_DELAY_MS = 1000;

/** A committed event the worker sent without its replies (too big for one NOTIFY). */
type SlimCommitted = Extract<SessionEvent, { type: 'committed' }> & { repliesOmitted?: boolean; replyIds?: string[] };

/**
 * LISTEN/NOTIFY (Postgres mode): one dedicated connection LISTENs on every channel a request
 * waits on. When it breaks, a new one is opened and every channel is listened to again; events
 * NOTIFYed in between are lost, as with Redis pub/sub, and waiters still read the committed rows.
 */
export class PostgresSessionEventsSubscriber extends SessionEventsSubscriber {
  private client: Promise<Client> | undefined;
  private closed = false;

  constructor(
    private readonly env: Pick<Env, 'DATABASE_URL'>,
    private readonly prisma: PrismaService,
  ) {
    super();
  }

  protected async subscribe(channel: string): Promise<void> {
    const client = await this.connection();
    await client.query(`LISTEN ${escapeIdentifier(channel)}`);
  }

  protected async unsubscribe(channel: string): Promise<void> {
    if (!this.client) return;
    await (await this.client).query(`UNLISTEN ${escapeIdentifier(channel)}`);
  }

  protected async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    if (client) await (await client).end().catch(() => undefined);
  }

  /** The LISTEN connection, opened on first use and again after it broke. */
  private connection(): Promise<Client> {
    if (!this.client) {
      const opening = this.open();
      this.client = opening;
      opening.catch(() => {
        if (this.client === opening) this.client = undefined; // the next listen tries again
      });
    }
    return this.client;
  }

  private async open(): Promise<Client> {
    const client = new Client({ connectionString: this.env.DATABASE_URL, keepAlive: true });
    client.on('notification', (n) => {
      if (n.payload !== undefined) this.dispatch(n.channel, n.payload);
    });
    const broke = (err?: Error) => this.reconnect(client, err);
    client.on('error', broke);
    client.on('end', () => broke());
    await client.connect();
    return client;
  }

  private reconnect(broken: Client, err?: Error): void {
    if (this.closed || !this.client) return;
    const current = this.client;
    void current.then((c) => {
      if (c !== broken || this.client !== current) return; // already replaced
      this.logger.warn({ err: err?.message }, 'LISTEN connection lost; reconnecting');
      this.client = undefined;
      broken.end().catch(() => undefined);
      setTimeout(() => void this.relisten(), RECONNECT_DELAY_MS).unref();
    });
  }

  private async relisten(): Promise<void> {
    if (this.closed) return;
    try {
      for (const channel of this.listeners.keys()) await this.subscribe(channel);
    } catch (err) {
      this.logger.warn({ err: (err as Error).message }, 'LISTEN again failed; retrying');
      this.client = undefined;
      setTimeout(() => void this.relisten(), RECONNECT_DELAY_MS).unref();
    }
  }

  protected override deliver(channel: string, event: SessionEvent): void {
    const slim = event as SlimCommitted;
    if (slim.type !== 'committed' || !slim.repliesOmitted) return super.deliver(channel, event);
    // The replies did not fit in the notification: read them from the turn's outbound rows.
    void this.prisma.message
      .findMany({
        // Only the replies this event announced (a delayed reply has its own event); older publishers sent no ids.
        where: { turnId: slim.turnId, direction: 'outbound', ...(slim.replyIds && { id: { in: slim.replyIds } }) },
        orderBy: { seq: 'asc' },
        select: { id: true, text: true },
      })
      .then((rows) => super.deliver(channel, {
          type: 'committed',
          turnId: slim.turnId,
          answered: slim.answered,
          replies: rows.map((r) => ({ id: r.id, text: r.text })),
          ...(slim.status && { status: slim.status }),
          ...(slim.retryAt && { retryAt: slim.retryAt }),
        }))
      .catch((err: Error) => this.logger.warn({ err: err.message, channel }, 'could not read the replies of a committed event'));
  }
}
