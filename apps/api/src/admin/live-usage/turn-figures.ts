import { Prisma } from '@switchboard/db';
import type { TenantTx } from '@switchboard/db';

/** The range the live figures read turns from: [from, to) instants, an optional tenant and agent. */
export interface TurnRange {
  tenantId?: string;
  agentId?: string;
  from: Date;
  to: Date;
}

/** Percentiles of turn latency (totalMs) computed from the turn rows themselves, not a histogram. */
export interface ExactLatency {
  /** How the numbers were computed, for the console's label. */
  method: 'exact';
  turns: number;
  p50: number | null;
  p95: number | null;
  p99: number | null;
}

const where = (r: TurnRange, alias: string) => {
  const col = (c: string) => Prisma.raw(`${alias}."${c}"`);
  const parts = [Prisma.sql`${col('createdAt')} >= ${r.from}`, Prisma.sql`${col('createdAt')} < ${r.to}`];
  if (r.tenantId) parts.push(Prisma.sql`${col('tenantId')} = ${r.tenantId}::uuid`);
  if (r.agentId) parts.push(Prisma.sql`${col('agentId')} = ${r.agentId}::uuid`);
  return Prisma.join(parts, ' AND ');
};

// percentile_cont interpolates linearly between the two nearest turns (as numpy's default does);
// one decimal is more than the ms clock the worker measures with.
const round = (v: number | null) => (v === null ? null : Math.round(Number(v) * 10) / 10);

type PercentileRow = { turns: bigint; p: (number | null)[] | null };

/** p50/p95/p99 of totalMs over every turn in the range (index Turn(tenantId, createdAt)). */
export async function exactLatency(tx: TenantTx, r: TurnRange): Promise<ExactLatency> {
  const [row] = await tx.$queryRaw<PercentileRow[]>`
    SELECT count(*) AS turns, percentile_cont(ARRAY[0.5, 0.95, 0.99]) WITHIN GROUP (ORDER BY t."totalMs") AS p
    FROM "Turn" t WHERE ${where(r, 't')}`;
  const p = row?.p ?? [null, null, null];
  return { method: 'exact', turns: Number(row?.turns ?? 0), p50: round(p[0]), p95: round(p[1]), p99: round(p[2]) };
}

export interface DayLatency {
  day: string;
  turns: number;
  p50: number;
  p95: number;
}

/** The same percentiles per UTC day, across the range's agents (what the latency chart draws). */
export async function exactLatencyByDay(tx: TenantTx, r: TurnRange): Promise<DayLatency[]> {
  const rows = await tx.$queryRaw<{ day: Date; turns: bigint; p: number[] }[]>`
    SELECT date_trunc('day', t."createdAt" AT TIME ZONE 'UTC') AS day, count(*) AS turns,
           percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY t."totalMs") AS p
    FROM "Turn" t WHERE ${where(r, 't')} GROUP BY 1 ORDER BY 1`;
  return rows.map((x) => ({ day: x.day.toISOString().slice(0, 10), turns: Number(x.turns), p50: round(x.p[0]) ?? 0, p95: round(x.p[1]) ?? 0 }));
}

export interface ChannelFigures {
  channelId: string;
  channelName: string;
  kind: string;
  turns: number;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  /** Turns with a step outcome of status `failed` (the worker also counts a failed inbound). */
  failedTurns: number;
  p50: number | null;
  p95: number | null;
}

/** Turns, calls, tokens and exact latency per channel (a turn's channel is its session's). */
export async function figuresByChannel(tx: TenantTx, r: TurnRange): Promise<ChannelFigures[]> {
  const rows = await tx.$queryRaw<
    { channelId: string; channelName: string; kind: string; turns: bigint; llmCalls: bigint; inputTokens: bigint; outputTokens: bigint; failedTurns: bigint; p: number[] }[]
  >`
    SELECT c.id AS "channelId", c.name AS "channelName", c.kind::text AS kind, count(*) AS turns,
           sum(t."llmCalls") AS "llmCalls", sum(t."inputTokens") AS "inputTokens", sum(t."outputTokens") AS "outputTokens",
           count(*) FILTER (WHERE EXISTS (SELECT 1 FROM jsonb_array_elements(t.outcomes) o WHERE o->>'status' = 'failed')) AS "failedTurns",
           percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY t."totalMs") AS p
    FROM "Turn" t JOIN "Session" s ON s.id = t."sessionId" JOIN "Channel" c ON c.id = s."channelId"
    WHERE ${where(r, 't')}
    GROUP BY c.id, c.name, c.kind ORDER BY count(*) DESC, c.name`;
  return rows.map((x) => ({
    channelId: x.channelId,
    channelName: x.channelName,
    kind: x.kind,
    turns: Number(x.turns),
    llmCalls: Number(x.llmCalls),
    inputTokens: Number(x.inputTokens),
    outputTokens: Number(x.outputTokens),
    failedTurns: Number(x.failedTurns),
    p50: round(x.p[0]),
    p95: round(x.p[1]),
  }));
}
