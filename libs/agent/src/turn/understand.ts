// Understand (engine.md §3 step 1): at most one call that scores candidate flows and extracts
// field values. Skipped when there is nothing to judge. A failed call throws ProviderError from
// the turn: nothing ran yet, and the host retries the input.
import { extractMode, isKnown } from '../definition/coerce';
import { type Flow, isTalkStep, type TalkStep } from '../types/flow';
import type { Run } from '../types/session';
import { callModel } from './call-model';
import { pendingOf } from './move';
import { structuredOf, understandSchema, understandSystem, isPlainObject } from './prompts';
import { floorHolder, stepOf } from './runs';
import { startableFlows } from './route';
import { writeReported } from './settle';
import type { TurnState } from './state';
import { mentionable, phrasesOf } from './triggers';

export interface Understanding {
  /** Scores (0-100) of the flows that were asked about. */
  scores: Record<string, number>;
}

/**
 * The flows worth scoring: startable ones and flows a mention may start, plus the floor
 * holder's flow when others compete with it.
 */
function flowsToScore(state: TurnState, holder: Run | undefined): Flow[] {
  const startable = startableFlows(state).filter((s) => !s.catchAll).map((s) => s.flow);
  for (const m of mentionable(state)) if (!startable.includes(m.flow)) startable.push(m.flow);
  if (startable.length === 0 || !holder) return startable;
  const own = state.def.flowById.get(holder.flowId);
  return own && hasPhrases(own) && !startable.includes(own) ? [own, ...startable] : startable;
}

function hasPhrases(flow: Flow): boolean {
  return phrasesOf(flow).some((p) => !p.startsWith('!'));
}

/** The asking run's step, when it is a talk step. */
function askingStep(state: TurnState, holder: Run | undefined): TalkStep | undefined {
  const step = holder?.status === 'asking' ? stepOf(state, holder) : undefined;
  return step && isTalkStep(step) ? step : undefined;
}

/** The yes/no `when` questions of the asking step's branches, keyed `${stepId}:${index}`. */
function questionsToAsk(state: TurnState, holder: Run | undefined): { id: string; text: string }[] {
  const step = askingStep(state, holder);
  return (step?.branches ?? []).flatMap((b, i) => (b.when ? [{ id: `${step!.id}:${i}`, text: b.when }] : []));
}

/**
 * Missing fields the model may pick from any message, plus the pending fields of the step the
 * asking run waits at: the message is read as that step's answer, even when the question came
 * from the step before it ("Posso reservar?" then a step collecting a boolean).
 */
function slugsToExtract(state: TurnState, holder: Run | undefined): string[] {
  const { fields } = state.def;
  const slugs = Object.keys(fields).filter((slug) => extractMode(fields[slug]) === 'anywhere' && !isKnown(state.session.data[slug]));
  const step = askingStep(state, holder);
  if (step) {
    for (const slug of pendingOf(state, step)) if (!slugs.includes(slug)) slugs.push(slug);
  }
  // A mention trigger's `extract` fields are read from the message that may start it.
  for (const m of mentionable(state)) {
    const trigger = (m.flow.on ?? [])[m.index] as { extract?: string[] };
    for (const slug of trigger.extract ?? []) if (!isKnown(state.session.data[slug]) && !slugs.includes(slug)) slugs.push(slug);
  }
  return slugs;
}

export async function understand(state: TurnState): Promise<Understanding> {
  const holder = floorHolder(state);
  const flows = flowsToScore(state, holder);
  const slugs = slugsToExtract(state, holder);
  const questions = questionsToAsk(state, holder);
  if (flows.length === 0 && slugs.length === 0 && questions.length === 0) return { scores: {} };

  const ask = { flows, slugs, questions };
  const reply = await callModel(state, {
    call: 'understand',
    round: 0,
    system: understandSystem(state.def.instructions, state.def.fields, ask),
    history: [...state.history],
    tools: [],
    schema: understandSchema(state.def.fields, ask),
  });
  // A reply that does not parse judges nothing.
  const judged = structuredOf(reply);
  if (!judged) return { scores: {} };

  const scores: Record<string, number> = {};
  if (isPlainObject(judged.flows)) {
    for (const flow of flows) {
      const score = judged.flows[flow.id];
      if (typeof score === 'number' && Number.isFinite(score)) scores[flow.id] = Math.min(100, Math.max(0, score));
    }
  }
  if (isPlainObject(judged.branches)) {
    for (const q of questions) if (judged.branches[q.id] === true) state.answers[q.id] = true;
  }
  if (isPlainObject(judged.fields)) {
    // Only what was asked is written; a slug the agent lacks is reported (`unknown-field`).
    const reported: Record<string, unknown> = {};
    for (const [slug, value] of Object.entries(judged.fields)) {
      if (slugs.includes(slug) || !Object.prototype.hasOwnProperty.call(state.def.fields, slug)) reported[slug] = value;
    }
    const where = holder
      ? { runId: holder.id, flowId: holder.flowId, stepId: holder.stepId, kind: 'collect' as const }
      : { kind: 'collect' as const };
    writeReported(state, reported, where, holder);
  }
  return { scores };
}
