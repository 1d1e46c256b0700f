// The load side of the ingest bench, run as its own process so the client's CPU is not the
// server's: autocannon posts channel messages spread over a pool of sessions, first a warm-up
// (discarded), then the measured run. Input: one JSON argument (LoadSpec); output: one JSON line
// (LoadResult) on stdout.
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  headers: Record<string, string>;
  /** Distinct session keys the messages go to (round robin). */
  sessions: number;
  connections: number;
  durationS: number;
  warmupS: number;
}

export interface LoadResult {
  /** 2xx answers during the warm-up (not in the figures, but in the server's CPU time). */
  warmupOk: number;
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  durationS: number;
  rps: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length))) - 1];
}

function fire(spec: LoadSpec, durationS: number, samples?: number[]): Promise<autocannon.Result> {
  let n = 0;
  let done!: (r: autocannon.Result) => void;
  let failed!: (e: Error) => void;
  const finished = new Promise<autocannon.Result>((resolve, reject) => ((done = resolve), (failed = reject)));
  const instance = autocannon(
    {
      url: spec.url,
      method: 'POST',
      connections: spec.connections,
      duration: durationS,
      headers: { 'content-type': 'application/json', ...spec.headers },
      requests: [
        {
          setupRequest: (req) => ({ ...req, body: JSON.stringify({ session: `bench-${n++ % spec.sessions}`, text: 'Olá, quero um quarto.' }) }),
        },
      ],
    },
    (err, result) => (err ? failed(err as Error) : done(result)),
  );
  if (samples) {
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
      if (statusCode >= 200 && statusCode < 300) samples.push(responseTime);
    });
  }
  return finished;
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2] ?? '{}') as LoadSpec;
  const warmup = spec.warmupS > 0 ? await fire(spec, spec.warmupS) : undefined;
  const samples: number[] = [];
  const started = process.hrtime.bigint();
  const result = await fire(spec, spec.durationS, samples);
  const elapsedS = Number(process.hrtime.bigint() - started) / 1e9;
  samples.sort((a, b) => a - b);
  const out: LoadResult = {
    warmupOk: warmup?.['2xx'] ?? 0,
    requests: result.requests.sent,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    durationS: Math.round(elapsedS * 100) / 100,
    rps: Math.round(result['2xx'] / elapsedS),
    latencyMs: { p50: percentile(samples, 50), p95: percentile(samples, 95), p99: percentile(samples, 99), max: samples[samples.length - 1] ?? NaN },
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
