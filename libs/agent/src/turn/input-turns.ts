// Turns that carry no customer message (engine.md §6): a wake from an earlier schedule, an
// event the host reports, a flow started by hand. Each returns whether the session changed;
// a stale, broken or repeated input changes nothing and says why in one outcome.
import { parseDuration } from '../clock/duration';
import { type EventTrigger, isEventTrigger } from '../types/flow';
import type { SessionWake } from '../types/session';
import { drainQueue, drive } from './drive';
import { settleFloor } from './floor';
import { noteInput, skip } from './inputs';
import { startRun } from './runs';
import { silenceStands } from './silence';
import { recordOutcome, type TurnState } from './state';
import { claimKey, firing, isLive, mayFire, renews } from './triggers';
import { leaveWait } from './wait';

export async function wakeTurn(state: TurnState, key: string): Promise<boolean> {
  const { session } = state;
  const run = session.runs.find((r) => r.status === 'waiting' && r.waiting?.key === key);
  if (run) {
    const reason = run.waiting!.reason ?? 'retry';
    if (reason === 'retry' || reason === 'defer') {
      // The same visit again: a retried talk step, or a deferred action with the same key.
      delete run.waiting;
      await drive(state, run);
    } else {
      const onStep = leaveWait(state, run, reason === 'timer' ? 'no-reply' : 'no-event');
      if (onStep) await drive(state, run);
      else await drainQueue(state);
    }
    settleFloor(state);
    return true;
  }

  const wake = session.wakes?.find((w) => w.key === key);
  if (!wake) return unknownWake(state, key);
  const flow = state.def.flowById.get(wake.flowId);
  const trigger = flow?.on?.[wake.trigger];
  if (!flow || !trigger) return skip(state, 'broken-wake', `wake "${key}" names trigger ${wake.trigger} of flow "${wake.flowId}", which this agent lacks`);
  if (wake.kind === 'silence' && !silenceStands(state, wake)) return skip(state, 'stale-wake', `someone wrote since wake "${key}" was armed`);
  if (isLive(state, flow.id)) return skip(state, 'stale-wake', `flow "${flow.id}" already has a live run`);
  if (!mayFire(state, flow, wake.trigger)) return skip(state, 'stale-wake', `the trigger of wake "${key}" may not fire again yet`);

  session.wakes = session.wakes!.filter((w) => w !== wake);
  if (session.wakes.length === 0) delete session.wakes;
  const started = startRun(state, flow, claimKey(flow, wake.trigger), { renew: renews(trigger), key: wake.startKey ?? key });
  recordOutcome(state, { runId: started.id, flowId: flow.id, kind: 'trigger', status: 'ok', code: 'started', detail: { trigger: wake.kind } });
  await drive(state, started);
  settleFloor(state);
  return true;
}

/**
 * A key nothing waits on. Stale when it still reads as a wake of this agent (the run moved on,
 * someone wrote); broken when it names no flow of this agent or has no shape a wake has.
 */
function unknownWake(state: TurnState, key: string): false {
  const flows = [...state.def.flowById.keys()];
  const prefixed = /^(silence|event):/.exec(key);
  const named = prefixed
    ? flows.some((id) => key.startsWith(`${prefixed[0]}${id}:`))
    : key.includes('#') && flows.includes(key.slice(0, key.indexOf('#')));
  return named
    ? skip(state, 'stale-wake', `no run or trigger waits on wake "${key}"`)
    : skip(state, 'broken-wake', `wake "${key}" names no flow of this agent`);
}

export async function eventTurn(state: TurnState, event: string, key: string): Promise<boolean> {
  const id = `event:${event}:${key}`;
  if (state.session.inputs.includes(id)) return skip(state, 'duplicate-input', `event "${event}" with key "${key}" was already handled`);
  noteInput(state, id, false);
  if (state.input.data) Object.assign(state.session.data, state.input.data);

  const waiting = state.session.runs.filter((r) => r.status === 'waiting' && r.waiting?.reason === 'event' && r.waiting.event === event);
  for (const run of waiting) {
    if (leaveWait(state, run, 'event-arrived')) await drive(state, run);
    else await drainQueue(state);
  }

  const seen = new Set<string>();
  for (const { flow, index, claim, renew } of firing(state, (t) => isEventTrigger(t) && t.event === event)) {
    if (seen.has(flow.id) || isLive(state, flow.id)) continue;
    seen.add(flow.id);
    const trigger = flow.on![index] as EventTrigger;
    if (trigger.after !== undefined) {
      const atMs = state.now.getTime() + parseDuration(trigger.after);
      const wake: SessionWake = { key: `event:${flow.id}:${key}:${atMs}`, at: new Date(atMs).toISOString(), kind: 'start', flowId: flow.id, trigger: index, startKey: key };
      state.session.wakes = [...(state.session.wakes ?? []), wake];
      state.schedule.push({ key: wake.key, at: wake.at });
      recordOutcome(state, { flowId: flow.id, kind: 'trigger', status: 'ok', code: 'start-scheduled', until: wake.at, detail: { event, key } });
      continue;
    }
    const run = startRun(state, flow, claim, { renew, key });
    recordOutcome(state, { runId: run.id, flowId: flow.id, kind: 'trigger', status: 'ok', code: 'started', detail: { trigger: 'event', event } });
    await drive(state, run);
  }
  settleFloor(state);
  return true;
}

export async function startTurn(state: TurnState, flowId: string): Promise<boolean> {
  const key = state.triggerKey;
  const id = `start:${flowId}:${key}`;
  if (state.session.inputs.includes(id)) return skip(state, 'duplicate-input', `the start of "${flowId}" with key "${key}" was already handled`);
  if (isLive(state, flowId)) return skip(state, 'already-running', `flow "${flowId}" already has a live run`);
  noteInput(state, id, false);
  if (state.input.data) Object.assign(state.session.data, state.input.data);
  const run = startRun(state, state.def.flowById.get(flowId)!, undefined, { key });
  recordOutcome(state, { runId: run.id, flowId, kind: 'trigger', status: 'ok', code: 'started', detail: { trigger: 'start' } });
  await drive(state, run);
  settleFloor(state);
  return true;
}
