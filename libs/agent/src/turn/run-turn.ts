// One turn, start to finish: the single decision path behind both `turn` and `turnStream`.
// A turn is a customer message, a wake, an event or a start; each has its own entry below and
// all of them end in `finish`.
import type { HistoryItem } from '../provider';
import type { TurnInput, TurnResult } from '../types/turn';
import type { Run, Session } from '../types/session';
import { judgeBranches } from './branches';
import { type AgentDefinition, START_SCORE } from './definition';
import { drainQueue, drive } from './drive';
import { settleFloor } from './floor';
import { idleSpeak } from './idle';
import { decide } from './route';
import { loadSession } from './session';
import { armSilence } from './silence';
import { type DeltaSink, recordOutcome, type TurnState } from './state';
import { isLive, mentionable } from './triggers';
import { eventTurn, startTurn, wakeTurn } from './input-turns';
import { noteInput, skip, type UnchangedCode } from './inputs';
import { startRun, suspend } from './runs';
import { understand } from './understand';
import { leaveWait } from './wait';

export async function runTurn(def: AgentDefinition, input: TurnInput, sink?: DeltaSink): Promise<TurnResult> {
  const loaded = await loadSession(def, input);
  const now = def.clock.now();
  const state = createState(def, input, loaded.session, now, sink);
  const done = (changed: boolean) => (changed ? finish(def, state, loaded.managed, loaded.session.version) : toResult(state, false));

  if (input.wake !== undefined) return done(await wakeTurn(state, input.wake));
  if (input.event !== undefined) return done(await eventTurn(state, input.event, input.key!));
  if (input.start !== undefined) return done(await startTurn(state, input.start.flow));

  if (input.id !== undefined && state.session.inputs.includes(input.id)) {
    return unchanged(state, 'duplicate-input', `input "${input.id}" was already handled`);
  }
  if (input.data) Object.assign(state.session.data, input.data);
  replied(state);

  // Throws ProviderError when the understand call fails: nothing has been decided yet.
  const { scores } = await understand(state);
  noteInput(state, input.id, true);
  const run = decide(state, scores);
  if (run) {
    const resumed = !state.startedIds.includes(run.id);
    if (!resumed || judgeBranches(state, run)) await drive(state, run);
    else await drainQueue(state);
  }
  await startMentions(state, scores);
  if (unanswered(state, run)) {
    // The run ended without a word: a suspended run or a catch-all may take the message, else idle.
    const next = run ? decide(state, {}) : undefined;
    if (next) await drive(state, next);
    if (unanswered(state, next)) await idleSpeak(state);
  }
  settleFloor(state);
  return done(true);
}

/**
 * A customer message reaches runs parked on a timer wait: each takes its `else` (`replied`),
 * and one that lands on a step holds the floor, so the message is read as that step's answer.
 */
function replied(state: TurnState): void {
  const parked = state.session.runs.filter((r) => r.status === 'waiting' && r.waiting?.reason === 'timer');
  for (const run of parked) {
    const onStep = leaveWait(state, run, 'replied');
    const next: Run | undefined = onStep ? run : state.queue.shift();
    state.queue.length = 0;
    if (!next) continue;
    if (state.session.runs.some((r) => r.status === 'asking' && r !== next)) suspend(state, next);
    else next.status = 'asking';
  }
}

/** Flows a mention trigger starts as side runs: scored in the same understand call, at least 40. */
async function startMentions(state: TurnState, scores: Record<string, number>): Promise<void> {
  for (const m of mentionable(state)) {
    if ((scores[m.flow.id] ?? 0) < START_SCORE || isLive(state, m.flow.id)) continue;
    const run = startRun(state, m.flow, m.claim, { renew: m.renew, side: true });
    recordOutcome(state, { runId: run.id, flowId: m.flow.id, kind: 'trigger', status: 'ok', code: 'started', detail: { trigger: 'mention', score: scores[m.flow.id] } });
    await drive(state, run);
  }
}

/**
 * Nothing was sent, and the run that took the message (if any) ended without speaking: it
 * completed, or its step vanished from a new agent version. A provider failure is not
 * covered: the host answers with its fallback.
 */
function unanswered(state: TurnState, run: Run | undefined): boolean {
  if (state.answered || state.messages.length > 0) return false;
  return !run || state.ended.some((e) => e.id === run.id && (e.reason === 'completed' || e.code === 'missing-step'));
}

function triggerKeyOf(input: TurnInput, now: Date): string {
  if (input.wake !== undefined) return input.wake;
  if (input.event !== undefined && input.key !== undefined) return input.key;
  if (input.start !== undefined) return input.start.key;
  return input.id ?? String(now.getTime());
}

function createState(def: AgentDefinition, input: TurnInput, session: Session, now: Date, sink: DeltaSink | undefined): TurnState {
  const history: HistoryItem[] = [...(input.history ?? [])];
  const isMessage = input.wake === undefined && input.event === undefined && input.start === undefined;
  if (isMessage && typeof input.message === 'string') history.push({ role: 'user', content: input.message });
  return {
    def,
    input,
    session,
    now,
    nowIso: now.toISOString(),
    triggerKey: triggerKeyOf(input, now),
    history,
    sink,
    messages: [],
    outcomes: [],
    startedIds: [],
    ended: [],
    schedule: [],
    trace: [],
    llmCalls: 0,
    usage: undefined,
    // A silenced turn counts as answered from the start: talk steps wait, no idle reply.
    answered: input.silent === true,
    moves: new Map(),
    queue: [],
    driven: [],
    delays: new Map(),
    answers: {},
  };
}

export function unchanged(state: TurnState, code: UnchangedCode, message: string): TurnResult {
  skip(state, code, message);
  // The untouched session as it came in: nothing to save.
  return toResult(state, false);
}

async function finish(def: AgentDefinition, state: TurnState, managed: boolean, loadedVersion: number): Promise<TurnResult> {
  armSilence(state);
  const result = toResult(state, true);
  if (managed) result.session = await def.store.save(result.session, loadedVersion);
  return result;
}

function toResult(state: TurnState, changed: boolean): TurnResult {
  const started = state.startedIds.flatMap((id) => {
    const live = state.session.runs.find((r) => r.id === id);
    if (live) return [copyRun(live)];
    const ended = state.ended.find((r) => r.id === id);
    if (!ended) return [];
    const { reason: _reason, code: _code, ...run } = ended;
    return [copyRun(run)];
  });
  return {
    session: state.session,
    changed,
    messages: state.messages,
    llmCalls: state.llmCalls,
    ...(state.usage ? { usage: state.usage } : {}),
    outcomes: state.outcomes,
    started,
    ended: state.ended,
    schedule: state.schedule,
    trace: state.trace,
  };
}

/** A copy that shares nothing mutable with the session (runs hold flat JSON only). */
function copyRun(run: Run): Run {
  return { ...run, asked: { ...run.asked }, visits: { ...run.visits }, outcomes: [...run.outcomes], ...(run.waiting ? { waiting: { ...run.waiting } } : {}) };
}
