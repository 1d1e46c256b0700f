/** One call's share of a batch: its own value or its own error. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitOptions {
  /** Most calls in one batch. */
  maxBatch: number;
  /** Longest a call waits for the batch in flight before it goes out anyway. */
  maxWaitMs: number;
}

interface Call<T, R> {
  item: T;
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs concurrent calls as batches (group commit): one round trip and one commit for many
 * requests. When nothing is in flight a call goes out at the next turn of the event loop, with
 * whatever arrived in the same turn, so a lone request waits for nothing; while a batch is in
 * flight, calls gather and go out when it returns, or after maxWaitMs, whichever comes first.
 * Each call settles with its own outcome, and only once its batch has (nothing is answered
 * before it is stored); a batch that throws fails each of its calls with that error.
 */
export class GroupCommit<T, R> {
  private pending: Call<T, R>[] = [];
  private inFlight = 0;
  private immediate: NodeJS.Immediate | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly runBatch: (items: T[]) => Promise<Outcome<R>[]>,
    private readonly options: GroupCommitOptions,
  ) {}

  submit(item: T): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      this.pending.push({ item, resolve, reject });
      if (this.pending.length >= this.options.maxBatch) this.flush();
      else this.schedule();
    });
  }

  private schedule(): void {
    if (this.immediate || this.timer) return;
    if (this.inFlight === 0) this.immediate = setImmediate(() => this.flush());
    else this.timer = setTimeout(() => this.flush(), this.options.maxWaitMs);
  }

  private flush(): void {
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    this.immediate = this.timer = undefined;
    const batch = this.pending.splice(0, this.options.maxBatch);
    if (batch.length === 0) return;
    if (this.pending.length > 0) this.schedule();
    this.inFlight++;
    void this.runBatch(batch.map((c) => c.item))
      .then(
        (outcomes) => batch.forEach((call, i) => settle(call, outcomes[i])),
        (err: unknown) => batch.forEach((call) => call.reject(err)),
      )
      .finally(() => {
        this.inFlight--;
        if (this.pending.length > 0) this.flush();
      });
  }
}

function settle<T, R>(call: Call<T, R>, outcome: Outcome<R> | undefined): void {
  if (!outcome) call.reject(new Error('group commit: the batch returned no outcome for this call'));
  else if (outcome.ok) call.resolve(outcome.value);
  else call.reject(outcome.error);
}
