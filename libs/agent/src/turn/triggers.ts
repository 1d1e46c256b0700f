// Which triggers may fire (engine.md §6 `repeat`): `once` fires once per session, `always`
// every time, `{ cooldown }` again once the cooldown has passed since its last start. Defaults:
// once for message, mention and silence triggers; always for event triggers.
import { parseDuration } from '../clock/duration';
import {
  type Flow,
  isEventTrigger,
  isMentionTrigger,
  isMessageTrigger,
  type Trigger,
} from '../types/flow';
import type { TurnState } from './state';

export function claimKey(flow: Flow, index: number): string {
  return `${flow.id}:${index}`;
}

export function mayFire(state: TurnState, flow: Flow, index: number): boolean {
  const trigger = (flow.on ?? [])[index];
  const repeat = trigger.repeat ?? (isEventTrigger(trigger) ? 'always' : 'once');
  const claimed = state.session.claims[claimKey(flow, index)];
  if (repeat === 'always' || claimed === undefined) return true;
  if (repeat === 'once') return false;
  return state.now.getTime() - Date.parse(claimed) >= parseDuration(repeat.cooldown);
}

/** A cooldown trigger's claim records its last start; the others keep their first. */
export function renews(trigger: Trigger): boolean {
  return typeof trigger.repeat === 'object';
}

export function isLive(state: TurnState, flowId: string): boolean {
  return state.session.runs.some((r) => r.flowId === flowId);
}

export interface FiringTrigger {
  flow: Flow;
  index: number;
  claim: string;
  renew: boolean;
}

/** Triggers of one kind that may fire now, on flows with no live run. */
export function firing(state: TurnState, test: (t: Trigger) => boolean): FiringTrigger[] {
  const out: FiringTrigger[] = [];
  for (const flow of state.def.flows) {
    if (isLive(state, flow.id)) continue;
    (flow.on ?? []).forEach((trigger, index) => {
      if (test(trigger) && mayFire(state, flow, index)) out.push({ flow, index, claim: claimKey(flow, index), renew: renews(trigger) });
    });
  }
  return out;
}

/** The first mention trigger of each flow that may fire. */
export function mentionable(state: TurnState): FiringTrigger[] {
  const firstPerFlow = new Map<string, FiringTrigger>();
  for (const f of firing(state, isMentionTrigger)) if (!firstPerFlow.has(f.flow.id)) firstPerFlow.set(f.flow.id, f);
  return [...firstPerFlow.values()];
}

/** Phrases the understand call scores a flow by: message and mention phrases. */
export function phrasesOf(flow: Flow): string[] {
  return (flow.on ?? []).flatMap((t) => (isMessageTrigger(t) ? t.message : isMentionTrigger(t) ? t.mention : []));
}

