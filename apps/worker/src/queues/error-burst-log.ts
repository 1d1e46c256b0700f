/** What ErrorBurstLog writes: an error as it came, or how often it came again within the window. */
export interface ErrorBurstEntry {
  error: string;
  /** Set on a summary line: how many more times the error came within `windowMs` of its first line. */
  repeated?: number;
  windowMs?: number;
}

/**
 * Logs a queue's errors without flooding the log: the first of each kind at once, then one line
 * per window saying how many more came. During a 5 s database outage BullMQ retried its next-job
 * fetch without pause and emitted ~1,300 errors a second per worker (15,306 lines in one day's
 * chaos runs), each a log line. Errors of a kind differ only in their numbers (a port, a job id),
 * so those do not make a new kind; the line keeps the error as it came.
 */
export class ErrorBurstLog {
  private readonly bursts = new Map<string, { first: string; repeated: number; timer: NodeJS.Timeout }>();

  constructor(
    private readonly write: (entry: ErrorBurstEntry) => void,
    private readonly windowMs = 1_000,
  ) {}

  report(error: string): void {
    const kind = error.replace(/\d+/g, '#');
    const burst = this.bursts.get(kind);
    if (burst) {
      burst.repeated++;
      return;
    }
    this.write({ error });
    const timer = setTimeout(() => this.close(kind), this.windowMs).unref();
    this.bursts.set(kind, { first: error, repeated: 0, timer });
  }

  /** Writes the open windows' counts now (a stopping process), so the last repeats are not lost. */
  flush(): void {
    for (const kind of [...this.bursts.keys()]) this.close(kind);
  }

  private close(kind: string): void {
    const burst = this.bursts.get(kind);
    if (!burst) return;
    clearTimeout(burst.timer);
    this.bursts.delete(kind);
    if (burst.repeated > 0) this.write({ error: burst.first, repeated: burst.repeated, windowMs: this.windowMs });
  }
}
