// Predicates of `if` steps and branches (engine.md §6): JSON-safe, judged by code. Every key of
// one predicate must hold.
import { isKnown } from '../definition/coerce';
import type { Predicate } from '../types/flow';
import type { TurnState } from './state';

export function holds(state: TurnState, predicate: Predicate): boolean {
  if (typeof predicate === 'string') return conditionHolds(state, predicate);
  const { data } = state.session;
  if (predicate.equals) {
    for (const [slug, value] of Object.entries(predicate.equals)) {
      // `null` stands for "not known", so `{ equals: { cidade: null } }` reads "no city yet".
      if (value === null ? isKnown(data[slug]) : data[slug] !== value) return false;
    }
  }
  if (predicate.known && !predicate.known.every((slug) => isKnown(data[slug]))) return false;
  if (predicate.condition !== undefined) {
    const names = typeof predicate.condition === 'string' ? [predicate.condition] : predicate.condition;
    if (!names.every((name) => conditionHolds(state, name))) return false;
  }
  return true;
}

/** A registered condition; one that throws or returns anything but `true` does not hold. */
function conditionHolds(state: TurnState, name: string): boolean {
  const condition = state.def.conditions.get(name);
  if (!condition) return false;
  try {
    return condition.test({ sessionId: state.session.id, context: state.input.context, data: { ...state.session.data }, now: new Date(state.now) }) === true;
  } catch {
    return false;
  }
}
