import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { GroupCommit, type Outcome } from '../common/group-commit';

/** One request's place in a rate-limit window. */
export interface Window {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

export interface WindowCount {
  refused: boolean;
  window: Window;
}

/** Most requests counted in one store call, and the longest a count waits for the one in flight. */
const MAX_BATCH = 256;
const MAX_WAIT_MS = 2;

/**
 * A rate-limit window counted for many concurrent requests at once: the requests of one id that
 * arrive together are counted with one `consume(id, n)`, one script in Redis instead of n (about
 * 8% of the API's CPU per request at ingest, docs/hot-path.md "Ninth round"). Each
 * request gets the place it would have got alone: the window's count after the batch, less the
 * requests after it in the batch, so the first `limit` requests of a window pass and every
 * later one is refused, as when each was counted on its own. Every request uses up its point,
 * refused or not, as a lone consume does.
 */
export class BatchedWindow {
  private readonly batches = new GroupCommit<string, WindowCount>((ids) => this.countAll(ids), { maxBatch: MAX_BATCH, maxWaitMs: MAX_WAIT_MS });

  constructor(
    private readonly limiter: RateLimiterAbstract,
    private readonly limit: number,
  ) {}

  /** Counts one request of `id`; a store error (the limiter's insurance failing too) rejects. */
  count(id: string): Promise<WindowCount> {
    return this.batches.submit(id);
  }

  private async countAll(ids: string[]): Promise<Outcome<WindowCount>[]> {
    const byId = new Map<string, number[]>();
    for (const [i, id] of ids.entries()) {
      const indexes = byId.get(id);
      if (indexes) indexes.push(i);
      else byId.set(id, [i]);
    }
    const outcomes: Outcome<WindowCount>[] = new Array(ids.length);
    await Promise.all(
      [...byId].map(async ([id, indexes]) => {
        const n = indexes.length;
        try {
          const { res, refused } = await this.consume(id, n);
          // The k-th request of the batch holds place consumed - n + 1 + k of the window. A
          // refusal that counted nothing (a block, not a full window) refuses the whole batch.
          const blocked = refused && res.consumedPoints <= this.limit;
          indexes.forEach((at, k) => (outcomes[at] = { ok: true, value: this.placeIn(res, blocked ? Infinity : res.consumedPoints - n + 1 + k) }));
        } catch (error) {
          for (const at of indexes) outcomes[at] = { ok: false, error };
        }
      }),
    );
    return outcomes;
  }

  /** The limiter's state after adding `n`, whether or not it passed the limit. */
  private async consume(id: string, n: number): Promise<{ res: RateLimiterRes; refused: boolean }> {
    try {
      return { res: await this.limiter.consume(id, n), refused: false };
    } catch (err) {
      // consume() rejects with the limiter's state when the limit is passed; anything else is a store error.
      if (err instanceof RateLimiterRes) return { res: err, refused: true };
      throw err;
    }
  }

  private placeIn(res: RateLimiterRes, place: number): WindowCount {
    return {
      refused: place > this.limit,
      window: { limit: this.limit, remaining: Math.max(0, this.limit - place), resetSeconds: Math.ceil(res.msBeforeNext / 1000) },
    };
  }
}
