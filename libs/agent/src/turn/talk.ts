// A talk step speaks: its fixed `question` word for word on the first ask, else a speak call
// with the step's brief and allow-list, then settle.
import { isKnown } from '../definition/coerce';
import { offeredTools } from '../tools/offered';
import type { TalkStep } from '../types/flow';
import type { Run } from '../types/session';
import { flowOf } from './runs';
import { speakPrompt, speakSchema } from './prompts';
import { speak } from './speak';
import { sayMessage, settleFailure, writeData } from './settle';
import { messageKey, recordOutcome, type TurnState } from './state';

export function knownData(data: Record<string, unknown>): Record<string, unknown> {
  const known: Record<string, unknown> = {};
  for (const [slug, value] of Object.entries(data)) if (isKnown(value)) known[slug] = value;
  return known;
}

export async function talk(state: TurnState, run: Run, step: TalkStep, asks: string[]): Promise<void> {
  const kind = step.collect && step.collect.length > 0 ? 'collect' : 'prompt';
  const where = { runId: run.id, flowId: run.flowId, stepId: step.id, kind } as const;

  const firstAsk = asks.length > 0 && asks.every((slug) => (run.asked[slug] ?? 0) === 0);
  if (step.question !== undefined && firstAsk) {
    sayMessage(state, step.question, 'verbatim', messageKey(run), run);
    bumpAsked(run, asks);
    run.spoke = true;
    recordOutcome(state, { ...where, status: 'ok', code: 'question' }, run);
    return;
  }

  const flow = flowOf(state, run);
  const { fields } = state.def;
  const result = await speak(state, {
    ...speakPrompt(fields, {
      agentInstructions: state.def.instructions,
      instructions: flow?.instructions,
      prompt: step.prompt,
      asks: asks.map((slug) => ({ slug, how: step.ask?.[slug] ?? fields[slug].ask ?? `Ask the customer for ${slug}.` })),
      known: knownData(state.session.data),
    }),
    schema: speakSchema(fields, asks),
    offered: offeredTools(state.def.tools, [step.tools, flow?.tools], state.def.maxToolLoops),
    slugs: asks,
    run: { ...run },
  });

  writeData(state, result, where, run);
  if (result.message === undefined) {
    settleFailure(state, run, result, where);
    return;
  }
  sayMessage(state, result.message, 'ai', messageKey(run), run);
  bumpAsked(run, asks);
  run.spoke = true;
  delete run.failures;
  recordOutcome(state, { ...where, status: 'ok', code: kind === 'collect' ? 'asked' : 'spoke', llmCalls: result.calls }, run);
}

function bumpAsked(run: Run, slugs: string[]): void {
  for (const slug of slugs) run.asked[slug] = (run.asked[slug] ?? 0) + 1;
}
