// The speak call: the loop of provider rounds of tool.md. Up to `maxToolLoops` rounds offer
// the tools; after that many rounds with calls, one more round runs with no tools and a wrap-up
// section, so a message always comes back. Never throws: a failure is returned for settle.
import { type HistoryItem, ProviderError } from '../provider';
import { runToolRound } from '../tools/run-round';
import { declarationOf } from '../tools/offered';
import type { Run } from '../types/session';
import type { AnyTool } from '../types/tool';
import { callModel } from './call-model';
import { structuredOf, WRAP_UP_SECTION } from './prompts';
import type { TurnState } from './state';

export interface SpeakRequest {
  /** Sent first, the same on every speak call of the agent (speakPrompt). */
  system: string;
  /** Sent after the history: what this step and turn add. */
  context: string;
  schema: { name: string; schema: object };
  /** The allow-list, already resolved (tool.md); `[]` offers none. */
  offered: readonly AnyTool[];
  /** Slugs the envelope may report. */
  slugs: readonly string[];
  run?: Run;
}

export interface SpeakResult {
  /** The reply; absent when the call failed. */
  message?: string;
  error?: ProviderError;
  /** Envelope values merged across rounds (last wins), not yet checked. */
  values: Record<string, unknown>;
  /** Tool data patches in call order, across rounds. */
  patches: Record<string, unknown>[];
  /** Model calls this speak call made, failed ones included. */
  calls: number;
}

export async function speak(state: TurnState, req: SpeakRequest): Promise<SpeakResult> {
  const { maxToolLoops, clock } = state.def;
  const declarations = req.offered.map(declarationOf);
  // The whole tool set rides along for providers that narrow it by name (ModelRequest.declared);
  // only a round that offers tools carries it, so "no tools" still sends none (tool.md).
  const declared = declarations.length > 0 ? state.def.tools.map(declarationOf) : [];
  const history: HistoryItem[] = [...state.history];
  const data: Record<string, unknown> = { ...state.session.data };
  const result: SpeakResult = { values: {}, patches: [], calls: 0 };

  for (let round = 1; ; round += 1) {
    const offersTools = round <= maxToolLoops;
    // Only a call that used its tool rounds needs telling to wrap up.
    const wrapUp = !offersTools && maxToolLoops > 0;
    result.calls += 1;
    let reply;
    try {
      reply = await callModel(state, {
        call: 'speak',
        round,
        system: req.system,
        history: [...history],
        context: wrapUp ? `${req.context}\n\n${WRAP_UP_SECTION}` : req.context,
        tools: offersTools ? declarations : [],
        ...(offersTools && declared.length > 0 && { declared }),
        schema: req.schema,
      }, req.run && { runId: req.run.id, flowId: req.run.flowId, stepId: req.run.stepId });
    } catch (err) {
      return { ...result, error: err as ProviderError };
    }

    const structured = structuredOf(reply);
    if (structured) {
      for (const slug of req.slugs) if (slug in structured) result.values[slug] = structured[slug];
    }

    const calls = offersTools ? reply.toolCalls : [];
    if (calls.length === 0) {
      const message = typeof structured?.message === 'string' ? structured.message : (reply.text ?? '');
      if (message.trim() === '') {
        return { ...result, error: new ProviderError({ kind: 'empty', message: `the model's reply in round ${round} was empty` }) };
      }
      return { ...result, message };
    }

    const outcome = await runToolRound(
      { round, calls, offered: req.offered, ctx: { context: state.input.context, data, history, ...(req.run ? { run: req.run } : {}) }, clock },
      // Text beside the calls goes into the assistant item, never into the final message.
      typeof structured?.message === 'string' ? structured.message : reply.text,
    );
    state.trace.push(...outcome.traces);
    history.push(...outcome.items);
    for (const patch of outcome.patches) {
      result.patches.push(patch);
      Object.assign(data, patch);
    }
  }
}
