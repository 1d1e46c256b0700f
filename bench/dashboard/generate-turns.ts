// Fills a database with `rows` Turn rows, fast, straight in SQL (INSERT ... SELECT
// generate_series), and the daily roll-ups (UsageDaily, UsageOutcomeDaily) computed from those
// same rows, so the roll-ups agree with the turns exactly as the worker's commit keeps them.
//
// CLI: node -r @swc-node/register bench/dashboard/generate-turns.ts --database-url=URL --rows=1000000
//      [--tenants=2 --agents=3 --sessions=2000 --days=90]
// (the database must be migrated and hold the tenants, agents and channels: see seedTenants).
import { Client } from 'pg';
import { LATENCY_BUCKET_BOUNDS_MS, USAGE_SLOTS } from '@switchboard/db';

export interface GenerateSpec {
  rows: number;
  /** Tenants whose agents and channels already exist; rows are split evenly between them. */
  tenants: { tenantId: string; channelId: string; agentIds: string[] }[];
  sessionsPerTenant: number;
  /** Turns are spread evenly over the last `days` days, newest now. */
  days: number;
  /** Rows per INSERT statement (one transaction each), for progress and bounded WAL bursts. */
  batch: number;
  log?: (line: string) => void;
}

export interface GenerateResult {
  rows: number;
  seconds: number;
  rowsPerSec: number;
  usageDailyRows: number;
  outcomeDailyRows: number;
}

/** Bucket index of a totalMs: how many bucket bounds lie below it (width_bucket over bound + 1). */
const BUCKET_THRESHOLDS = `ARRAY[${LATENCY_BUCKET_BOUNDS_MS.map((b) => b + 1).join(',')}]::int[]`;
const BUCKET_COUNT = LATENCY_BUCKET_BOUNDS_MS.length + 1;
/** A roll-up slot per session, spread like the worker's usageSlot (another hash, same spread). */
const SLOT_OF_SESSION = `(abs(hashtext("sessionId"::text)) % ${USAGE_SLOTS})::smallint`;

export async function generateTurns(databaseUrl: string, spec: GenerateSpec): Promise<GenerateResult> {
  const log = spec.log ?? (() => undefined);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const started = Date.now();
  try {
    // Sessions of every tenant, numbered, so each generated turn picks one by `i % count`.
    await db.query(`
      INSERT INTO "Session" ("tenantId", "channelId", "agentId", "externalKey", "lastMessageAt", "updatedAt")
      SELECT (t->>'tenantId')::uuid, (t->>'channelId')::uuid,
             ((t->'agentIds')->>(n % jsonb_array_length(t->'agentIds'))::int)::uuid,
             'gen-' || n, now(), now()
        FROM jsonb_array_elements($1::jsonb) AS t, generate_series(0, $2::int - 1) AS n`,
      [JSON.stringify(spec.tenants), spec.sessionsPerTenant],
    );
    await db.query(`
      CREATE TEMP TABLE gen_session AS
      SELECT (row_number() OVER (ORDER BY id) - 1)::int AS n, id, "tenantId", "agentId"
        FROM "Session" WHERE "externalKey" LIKE 'gen-%' AND "tenantId" = ANY($1::uuid[])`,
      [spec.tenants.map((t) => t.tenantId)],
    );
    await db.query('CREATE UNIQUE INDEX ON gen_session (n)');
    const [{ count: sessionCount }] = (await db.query<{ count: number }>('SELECT count(*)::int AS count FROM gen_session')).rows;

    // One turn in 50 was deferred by an overloaded provider, one in 200 failed for good (auth):
    // outcome codes, outcomes and the roll-up counters all say the same.
    for (let offset = 0; offset < spec.rows; offset += spec.batch) {
      const end = Math.min(spec.rows, offset + spec.batch) - 1;
      await db.query(
        `
        INSERT INTO "Turn" ("tenantId", "sessionId", "agentId", "agentVersion", "provider", "model", "llmCalls",
          "inputTokens", "outputTokens", "cachedInputTokens", "outcomeCodes", "outcomes", "queueWaitMs", "modelMs",
          "toolsMs", "commitMs", "totalMs", "createdAt", "costMicros")
        SELECT s."tenantId", s.id, s."agentId", 1, 'scripted', 'bench-script', 1 + i % 4,
               200 + i % 1000, 20 + i % 200, (i % 3) * 50,
               CASE WHEN i % 50 = 0 THEN ARRAY['provider-overloaded'] WHEN i % 200 = 1 THEN ARRAY['provider-auth'] ELSE '{}'::text[] END,
               CASE WHEN i % 50 = 0 THEN '[{"status":"deferred","code":"provider-overloaded"}]'::jsonb
                    WHEN i % 200 = 1 THEN '[{"status":"failed","code":"provider-auth"}]'::jsonb
                    ELSE '[{"status":"completed"}]'::jsonb END,
               i % 40, m.model_ms, (i % 5) * 20, 3 + i % 10, m.model_ms + (i % 5) * 20 + 3 + i % 10 + i % 7,
               now() - make_interval(secs => (i::float8 / $2::float8) * $3::float8 * 86400),
               -- priced as gpt-4.1-mini ($0.40 input, $0.10 cached, $1.60 output per million), rounded half up
               ((200 + i % 1000 - (i % 3) * 50) * 400000 + (i % 3) * 50 * 100000 + (20 + i % 200) * 1600000 + 500000) / 1000000
          FROM generate_series($1::bigint, $4::bigint) AS i
          JOIN gen_session s ON s.n = (i % $5::bigint)::int
          CROSS JOIN LATERAL (SELECT (200 + (i * 7919) % 2400)::int AS model_ms) m`,
        [offset, spec.rows, spec.days, end, sessionCount],
      );
      log(`generated ${end + 1} / ${spec.rows} turns (${Math.round((Date.now() - started) / 1000)} s)`);
    }

    const tenantIds = spec.tenants.map((t) => t.tenantId);
    const buckets = Array.from({ length: BUCKET_COUNT }, (_, b) => `count(*) FILTER (WHERE bucket = ${b})::int`).join(', ');
    await db.query(
      `
      INSERT INTO "UsageDaily" ("tenantId", "agentId", "day", "turns", "deferredTurns", "failedTurns", "llmCalls",
        "inputTokens", "outputTokens", "cachedInputTokens", "queueWaitMs", "modelMs", "toolsMs", "commitMs", "totalMs",
        "latencyBuckets", "updatedAt", "slot", "costMicros")
      SELECT "tenantId", "agentId", day, count(*)::int,
             count(*) FILTER (WHERE outcomes @> '[{"status":"deferred"}]')::int,
             count(*) FILTER (WHERE outcomes @> '[{"status":"failed"}]')::int,
             sum("llmCalls"), sum("inputTokens"), sum("outputTokens"), sum("cachedInputTokens"), sum("queueWaitMs"),
             sum("modelMs"), sum("toolsMs"), sum("commitMs"), sum("totalMs"), ARRAY[${buckets}], now(), slot, sum("costMicros")
        FROM (SELECT *, ("createdAt" AT TIME ZONE 'UTC')::date AS day, width_bucket("totalMs", ${BUCKET_THRESHOLDS}) AS bucket,
                     ${SLOT_OF_SESSION} AS slot
                FROM "Turn" WHERE "tenantId" = ANY($1::uuid[])) t
       GROUP BY "tenantId", "agentId", day, slot`,
      [tenantIds],
    );
    await db.query(
      `
      INSERT INTO "UsageOutcomeDaily" ("tenantId", "agentId", "day", "code", "slot", "turns")
      SELECT "tenantId", "agentId", ("createdAt" AT TIME ZONE 'UTC')::date, code, ${SLOT_OF_SESSION}, count(*)::int
        FROM "Turn", unnest("outcomeCodes") AS code
       WHERE "tenantId" = ANY($1::uuid[])
       GROUP BY 1, 2, 3, 4, 5`,
      [tenantIds],
    );
    // The cost roll-up (docs/cost.md): each turn's calls spent by one of six steps of one flow.
    await db.query(
      `
      INSERT INTO "UsageCostDaily" ("tenantId", "agentId", "day", "slot", "channelId", "provider", "model", "part", "flowId", "stepId",
        "llmCalls", "inputTokens", "cachedInputTokens", "outputTokens", "costMicros")
      SELECT t."tenantId", t."agentId", (t."createdAt" AT TIME ZONE 'UTC')::date, ${SLOT_OF_SESSION.replace(/"sessionId"/g, 't."sessionId"')}, s."channelId",
             t.provider, t.model, 'step', 'bench', 'step-' || (abs(hashtext(t.id::text)) % 6),
             sum(t."llmCalls"), sum(t."inputTokens"), sum(t."cachedInputTokens"), sum(t."outputTokens"), sum(t."costMicros")
        FROM "Turn" t JOIN "Session" s ON s.id = t."sessionId"
       WHERE t."tenantId" = ANY($1::uuid[])
       GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10`,
      [tenantIds],
    );
    log('roll-ups written; VACUUM ANALYZE (what autovacuum would do on a live database)');
    await db.query('VACUUM ANALYZE "Turn"');
    await db.query('VACUUM ANALYZE "UsageDaily"');
    await db.query('VACUUM ANALYZE "UsageCostDaily"');
    await db.query('VACUUM ANALYZE "UsageOutcomeDaily"');

    const [{ daily, outcome }] = (
      await db.query<{ daily: number; outcome: number }>(
        `SELECT (SELECT count(*)::int FROM "UsageDaily" WHERE "tenantId" = ANY($1::uuid[])) AS daily,
                (SELECT count(*)::int FROM "UsageOutcomeDaily" WHERE "tenantId" = ANY($1::uuid[])) AS outcome`,
        [tenantIds],
      )
    ).rows;
    const seconds = (Date.now() - started) / 1000;
    return { rows: spec.rows, seconds, rowsPerSec: Math.round(spec.rows / seconds), usageDailyRows: daily, outcomeDailyRows: outcome };
  } finally {
    await db.end();
  }
}

/** The roll-up must count every generated turn exactly once; throws when it does not. */
export async function checkRollupConsistency(databaseUrl: string, tenantIds: string[]): Promise<void> {
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ turns: string; rolled: string; llm: string; rolledLlm: string; buckets: string; cost: string; rolledCost: string; costByStep: string }>(
      `SELECT (SELECT count(*) FROM "Turn" WHERE "tenantId" = ANY($1::uuid[])) AS turns,
              (SELECT coalesce(sum(turns), 0) FROM "UsageDaily" WHERE "tenantId" = ANY($1::uuid[])) AS rolled,
              (SELECT coalesce(sum("llmCalls"), 0) FROM "Turn" WHERE "tenantId" = ANY($1::uuid[])) AS llm,
              (SELECT coalesce(sum("llmCalls"), 0) FROM "UsageDaily" WHERE "tenantId" = ANY($1::uuid[])) AS "rolledLlm",
              (SELECT coalesce(sum(b), 0) FROM "UsageDaily", unnest("latencyBuckets") AS b WHERE "tenantId" = ANY($1::uuid[])) AS buckets,
              (SELECT coalesce(sum("costMicros"), 0) FROM "Turn" WHERE "tenantId" = ANY($1::uuid[])) AS cost,
              (SELECT coalesce(sum("costMicros"), 0) FROM "UsageDaily" WHERE "tenantId" = ANY($1::uuid[])) AS "rolledCost",
              (SELECT coalesce(sum("costMicros"), 0) FROM "UsageCostDaily" WHERE "tenantId" = ANY($1::uuid[])) AS "costByStep"`,
      [tenantIds],
    );
    const r = rows[0];
    if (r.turns !== r.rolled || r.llm !== r.rolledLlm || r.turns !== r.buckets || r.cost !== r.rolledCost || r.cost !== r.costByStep) {
      throw new Error(`roll-up disagrees with the turns: ${JSON.stringify(r)}`);
    }
  } finally {
    await db.end();
  }
}

function arg(name: string): string | undefined {
  return process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=').slice(1).join('=');
}

if (require.main === module) {
  // Standalone use on a database that has tenants: spreads the rows over every tenant's agents.
  (async () => {
    const url = arg('database-url') ?? process.env.DATABASE_URL;
    if (!url) throw new Error('pass --database-url=URL (or set DATABASE_URL)');
    const db = new Client({ connectionString: url });
    await db.connect();
    const { rows } = await db.query<{ tenantId: string; channelId: string; agentIds: string[] }>(
      `SELECT c."tenantId", min(c.id::text) AS "channelId", array_agg(DISTINCT a.id::text) AS "agentIds"
         FROM "Channel" c JOIN "Agent" a ON a."tenantId" = c."tenantId" GROUP BY c."tenantId"`,
    );
    await db.end();
    if (rows.length === 0) throw new Error('no tenant with a channel and an agent in this database');
    const result = await generateTurns(url, {
      rows: Number(arg('rows') ?? 1_000_000),
      tenants: rows,
      sessionsPerTenant: Number(arg('sessions') ?? 2000),
      days: Number(arg('days') ?? 90),
      batch: 1_000_000,
      log: (l) => console.log(l),
    });
    await checkRollupConsistency(url, rows.map((r) => r.tenantId));
    console.log(JSON.stringify(result));
  })().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
