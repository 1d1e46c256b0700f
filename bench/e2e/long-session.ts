import type { PrismaClient } from '@switchboard/db';
import { cpuDeltaSeconds, cpuSnapshot } from '../support/cpu-usage';
import type { ApiHandle } from '../support/processes';
import { summarize, type LatencySummary } from '../support/stats';
import { MessagePoster, sessionMessages } from './message-poster';
import { waitUntilAnswered } from './platform';

// Does a turn cost more on a long conversation? The same number of turns on sessions with
// `earlierMessages` earlier messages each (seeded straight into Message and Turn with SQL, as
// committed turns: an inbound and its reply per turn) and on fresh sessions, through the real API
// and worker; compared by the CPU the worker and Postgres spent per turn (what grows if a query
// reads the whole conversation) and by the worker's own time per turn.

export interface LongSessionSpec {
  prisma: PrismaClient;
  api: ApiHandle;
  apiKey: string;
  tenantId: string;
  databaseName: string;
  workerPids: number[];
  /** Sessions of each kind, and turns posted to each session in its phase. */
  sessions: number;
  turnsPerSession: number;
  earlierMessages: number;
  timeoutMs: number;
}

export interface LongSessionPhase {
  turns: number;
  /** CPU ms per turn: worker, API, Postgres (the bench database's backends). */
  cpuMsPerTurn: Record<string, number>;
  /** Turn.totalMs − Turn.modelMs: the worker's own time per turn, from taking the job to the commit's end. */
  workMs: LatencySummary;
}

export interface LongSessionRun {
  fresh: LongSessionPhase;
  long: LongSessionPhase;
}

export async function runLongSession(spec: LongSessionSpec): Promise<LongSessionRun> {
  const poster = new MessagePoster(spec.api.baseUrl, spec.apiKey);
  try {
    // Both kinds start as a session with one answered turn; then the long ones get their history.
    await answerOneEach(spec, poster);
    await seedHistory(spec);
    // One unmeasured turn per session of both kinds: the first phase after the seed paid for the
    // seed's bulk insert, whatever its sessions (measured: a second long phase after the fresh one
    // cost what the fresh one did, the API's CPU included, which no conversation length reaches).
    await answerOneEach(spec, poster);
    // Alternating halves, long first (a fresh session measured after it has had nothing cached in
    // its favour): whatever else the shared machine does drifts over both kinds alike. One phase
    // of each read 1.08× to 1.23× for the same code in runs minutes apart.
    const half = Math.ceil(spec.turnsPerSession / 2);
    const long1 = await phase(spec, poster, 'long', half);
    const fresh1 = await phase(spec, poster, 'fresh', half);
    const long2 = await phase(spec, poster, 'long', spec.turnsPerSession - half);
    const fresh2 = await phase(spec, poster, 'fresh', spec.turnsPerSession - half);
    return { fresh: combine(fresh1, fresh2), long: combine(long1, long2) };
  } finally {
    poster.close();
  }
}

/** One message to every session of both kinds, waited for until answered; not measured. */
async function answerOneEach(spec: LongSessionSpec, poster: MessagePoster): Promise<void> {
  await poster.postAll([...sessionMessages('long', spec.sessions, 1), ...sessionMessages('fresh', spec.sessions, 1)], 16);
  await waitUntilAnswered(spec, 'long', spec.timeoutMs);
  await waitUntilAnswered(spec, 'fresh', spec.timeoutMs);
}

/** Gives every `long-*` session `earlierMessages` older messages: committed turns, each an answered inbound and its reply. */
async function seedHistory(spec: LongSessionSpec): Promise<void> {
  const turns = Math.ceil(spec.earlierMessages / 2);
  await spec.prisma.$executeRawUnsafe(
    `WITH s AS (SELECT id, "tenantId", "channelId", "agentId" FROM "Session" WHERE "tenantId" = $1::uuid AND "externalKey" LIKE 'long-%'),
          t AS (INSERT INTO "Turn" ("tenantId", "sessionId", "agentId", provider, model, "createdAt")
                SELECT s."tenantId", s.id, s."agentId", 'scripted', 'bench-script', now() - interval '2 days' + g * interval '1 second'
                  FROM s CROSS JOIN generate_series(1, $2::int) AS g
                RETURNING id, "tenantId", "sessionId", "createdAt")
     INSERT INTO "Message" ("tenantId", "sessionId", "channelId", direction, status, text, "turnId", "createdAt", "answeredAt")
     SELECT t."tenantId", t."sessionId", s."channelId", d.direction::"MessageDirection", d.status::"MessageStatus", d.text, t.id,
            t."createdAt", CASE WHEN d.direction = 'inbound' THEN t."createdAt" END
       FROM t JOIN s ON s.id = t."sessionId"
      CROSS JOIN (VALUES ('inbound', 'answered', 'Uma mensagem antiga da conversa'), ('outbound', 'sent', 'Uma resposta antiga')) AS d(direction, status, text)`,
    spec.tenantId,
    turns,
  );
  // As autovacuum and the checkpointer would have by the time a conversation is this long: the
  // rows are vacuumed (their hint bits set), the planner sees them, and they are on disk. A
  // conversation's history is months of small commits, not one bulk insert a second ago.
  await spec.prisma.$executeRawUnsafe('VACUUM (ANALYZE) "Message", "Turn", "Session"');
  await spec.prisma.$executeRawUnsafe('CHECKPOINT');
}

/** What one phase measured: CPU seconds per process kind, the turns posted, the worker's own time per turn. */
interface PhaseSample {
  cpuSeconds: Record<string, number>;
  posted: number;
  workMs: number[];
}

async function phase(spec: LongSessionSpec, poster: MessagePoster, prefix: 'fresh' | 'long', turnsPerSession: number): Promise<PhaseSample> {
  const messages = sessionMessages(prefix, spec.sessions, turnsPerSession);
  const pids = { worker: spec.workerPids, api: [spec.api.pid] };
  const since = new Date();
  const cpu0 = await cpuSnapshot(pids, { database: spec.databaseName });
  await poster.postAll(messages, 16);
  await waitUntilAnswered(spec, prefix, spec.timeoutMs);
  const cpu1 = await cpuSnapshot(pids, { database: spec.databaseName });
  const rows = await spec.prisma.$queryRawUnsafe<{ totalMs: number; modelMs: number }[]>(
    `SELECT t."totalMs", t."modelMs" FROM "Turn" t JOIN "Session" s ON s.id = t."sessionId"
      WHERE t."tenantId" = $1::uuid AND s."externalKey" LIKE $2 AND t."createdAt" >= $3`,
    spec.tenantId,
    `${prefix}-%`,
    since,
  );
  return { cpuSeconds: cpuDeltaSeconds(cpu0, cpu1), posted: messages.length, workMs: rows.map((r) => r.totalMs - r.modelMs) };
}

/** Two phases of one kind as one: CPU per turn over both, the worker's time per turn over both. */
function combine(a: PhaseSample, b: PhaseSample): LongSessionPhase {
  const posted = a.posted + b.posted;
  const perTurn = (kind: string) => Math.round((((a.cpuSeconds[kind] ?? 0) + (b.cpuSeconds[kind] ?? 0)) * 1000 * 100) / posted) / 100;
  return {
    turns: a.workMs.length + b.workMs.length,
    cpuMsPerTurn: { worker: perTurn('worker'), api: perTurn('api'), postgres: perTurn('postgres') },
    workMs: summarize([...a.workMs, ...b.workMs]),
  };
}
