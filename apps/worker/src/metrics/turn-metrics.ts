import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import type { CommittedTurn, TurnCommit } from '../turns/commit-turn';

/**
 * The worker process's Prometheus registry. Process-wide on purpose, like the counters it
 * holds: they describe this process, and the turn code records into them with one call
 * instead of carrying a metrics dependency through every constructor.
 */
export const workerRegistry = new Registry();
collectDefaultMetrics({ register: workerRegistry });

export type TurnOutcome = 'answered' | 'failed' | 'handed_off' | 'silent';

const turns = new Counter({
  name: 'switchboard_turns_total',
  help: 'Committed turns by outcome: answered (sent a reply), failed, handed_off (a person has the session), silent (no reply)',
  labelNames: ['outcome'] as const,
  registers: [workerRegistry],
});
// Agent ids are bounded by the agents a deployment has (tens to hundreds), codes by OutcomeCode.
const outcomeCodes = new Counter({
  name: 'switchboard_turn_outcome_codes_total',
  help: 'Committed turns by agent id and outcome code (a turn counts once per distinct code; provider-* codes are model failures)',
  labelNames: ['agent', 'code'] as const,
  registers: [workerRegistry],
});
const llmCalls = new Counter({
  name: 'switchboard_llm_calls_total',
  help: 'Model calls made by committed turns',
  registers: [workerRegistry],
});
const tokens = new Counter({
  name: 'switchboard_tokens_total',
  help: 'Model tokens of committed turns by direction (input, output; cached_input is part of input)',
  labelNames: ['direction'] as const,
  registers: [workerRegistry],
});
const duration = new Histogram({
  name: 'switchboard_turn_duration_seconds',
  help: 'Time from the start of a turn to its commit, replays included',
  labelNames: ['outcome'] as const,
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [workerRegistry],
});

/** Which way a committed turn went, for the `outcome` label. */
export function turnOutcome(c: Pick<TurnCommit, 'inboundStatus' | 'replies' | 'usage'>): TurnOutcome {
  if (c.usage.outcomeCodes.includes('handed-off')) return 'handed_off';
  if (c.inboundStatus === 'failed' || c.usage.outcomes.some((o) => o.status === 'failed')) return 'failed';
  return c.replies.length > 0 ? 'answered' : 'silent';
}

/** The (agent, code) pairs a committed turn counts under: each distinct outcome code once. */
export function outcomeCodeLabels(c: Pick<TurnCommit, 'agentId' | 'usage'>): { agent: string; code: string }[] {
  return [...new Set(c.usage.outcomeCodes)].map((code) => ({ agent: c.agentId, code }));
}

/** Records one committed turn; called once per commit (a replayed turn commits once). */
export function recordCommittedTurn(c: TurnCommit, committed: Pick<CommittedTurn, 'totalMs'>): void {
  const outcome = turnOutcome(c);
  turns.inc({ outcome });
  for (const labels of outcomeCodeLabels(c)) outcomeCodes.inc(labels);
  llmCalls.inc(c.usage.llmCalls);
  tokens.inc({ direction: 'input' }, c.usage.inputTokens);
  tokens.inc({ direction: 'output' }, c.usage.outputTokens);
  tokens.inc({ direction: 'cached_input' }, c.usage.cachedInputTokens);
  duration.observe({ outcome }, committed.totalMs / 1000);
}
