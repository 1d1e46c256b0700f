// One turn, start to finish: the single decision path behind both `turn` and `turnStream`.
import type { HistoryItem } from '../provider';
import type { TurnInput, TurnResult } from '../types/turn';
import type { Run, Session } from '../types/session';
import { type AgentDefinition, KEEP_INPUTS } from './definition';
import { drive } from './drive';
import { idleSpeak } from './idle';
import { decide } from './route';
import { loadSession } from './session';
import { type DeltaSink, isoAt, recordOutcome, type TurnState } from './state';
import { understand } from './understand';

export async function runTurn(def: AgentDefinition, input: TurnInput, sink?: DeltaSink): Promise<TurnResult> {
  const loaded = await loadSession(def, input);
  const now = def.clock.now();
  const state = createState(def, input, loaded.session, now, sink);

  if (input.wake !== undefined) {
    const run = state.session.runs.find((r) => r.status === 'waiting' && r.waiting?.key === input.wake);
    if (!run) return unchanged(state, 'stale-wake', `no run waits on wake "${input.wake}"`);
    delete run.waiting;
    await drive(state, run);
    return finish(def, state, loaded.managed, loaded.session.version);
  }

  if (input.id !== undefined && state.session.inputs.includes(input.id)) {
    return unchanged(state, 'duplicate-input', `input "${input.id}" was already handled`);
  }
  if (input.data) Object.assign(state.session.data, input.data);

  // Throws ProviderError when the understand call fails: nothing has been decided yet.
  const { scores } = await understand(state);
  noteInput(state);
  const run = decide(state, scores);
  if (run) await drive(state, run);
  if (unanswered(state, run)) {
    // The run ended without a word: a suspended run or a catch-all may take the message, else idle.
    const next = run ? decide(state, {}) : undefined;
    if (next) await drive(state, next);
    if (unanswered(state, next)) await idleSpeak(state);
  }
  return finish(def, state, loaded.managed, loaded.session.version);
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

function createState(def: AgentDefinition, input: TurnInput, session: Session, now: Date, sink: DeltaSink | undefined): TurnState {
  const history: HistoryItem[] = [...(input.history ?? [])];
  if (input.wake === undefined && typeof input.message === 'string') history.push({ role: 'user', content: input.message });
  return {
    def,
    input,
    session,
    now,
    nowIso: now.toISOString(),
    triggerKey: input.id ?? String(now.getTime()),
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
    answered: false,
    moves: new Map(),
  };
}

function noteInput(state: TurnState): void {
  const { session, input } = state;
  if (input.id !== undefined) {
    session.inputs.push(input.id);
    if (session.inputs.length > KEEP_INPUTS) session.inputs.splice(0, session.inputs.length - KEEP_INPUTS);
  }
  session.lastUserAt = isoAt(state);
}

function unchanged(state: TurnState, code: 'stale-wake' | 'duplicate-input', message: string): TurnResult {
  recordOutcome(state, { kind: 'idle', status: 'skipped', code, message });
  // The untouched session as it came in: nothing to save.
  return toResult(state, false);
}

async function finish(def: AgentDefinition, state: TurnState, managed: boolean, loadedVersion: number): Promise<TurnResult> {
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
