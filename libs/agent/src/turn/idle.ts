// The idle speaker answers a message no run takes (engine.md §2). Its failure is one deferred
// outcome with no wake: there is no step to retry.
import { offeredTools } from '../tools/offered';
import { failureCode } from './failures';
import { speakPrompt, speakSchema } from './prompts';
import { speak } from './speak';
import { sayMessage, writeData } from './settle';
import { recordOutcome, type TurnState } from './state';
import { knownData } from './talk';

export async function idleSpeak(state: TurnState): Promise<void> {
  const { idle, fields } = state.def;
  if (idle === 'silent') {
    recordOutcome(state, { kind: 'idle', status: 'skipped', code: 'silent' });
    return;
  }
  const result = await speak(state, {
    ...speakPrompt(fields, {
      agentInstructions: state.def.instructions,
      instructions: idle?.instructions,
      prompt: idle?.prompt,
      asks: [],
      known: knownData(state.session.data),
    }),
    schema: speakSchema(fields, []),
    offered: offeredTools(state.def.tools, [idle?.tools], state.def.maxToolLoops),
    slugs: [],
  });
  writeData(state, result, { kind: 'idle' });
  if (result.message === undefined) {
    const error = result.error!;
    recordOutcome(state, { kind: 'idle', status: 'deferred', code: failureCode(error), message: error.message, detail: { kind: error.kind }, llmCalls: result.calls });
    return;
  }
  sayMessage(state, result.message, 'ai', `idle:${state.triggerKey}`);
  recordOutcome(state, { kind: 'idle', status: 'ok', code: 'spoke', llmCalls: result.calls });
}
