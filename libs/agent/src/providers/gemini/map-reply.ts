// generateContent responses (one, or the chunks of a stream) → ModelReply. The plain call runs
// its single response through the same accumulator, so both paths agree.
import type { GenerateContentResponse } from './sdk';
import type { ModelReply, Usage } from '../../provider';
import { ProviderError } from '../../provider';
import type { StreamAccumulator } from '../round';
import { parseJsonObject } from '../structured';
import { toolArguments } from '../tool-arguments';
import type { ThoughtSignatures } from './thought-signatures';

/** Finish reasons that mean the model would not answer; everything else empty is `empty`. */
const REFUSALS = new Set(['SAFETY', 'RECITATION', 'BLOCKLIST', 'PROHIBITED_CONTENT', 'SPII', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'LANGUAGE']);

export function responseAccumulator(wantsStructured: boolean, signatures: ThoughtSignatures): StreamAccumulator<GenerateContentResponse> {
  let text = '';
  const calls: { name: string; args: unknown }[] = [];
  let finishReason: string | undefined;
  let blockReason: string | undefined;
  let usage: Usage | undefined;
  return {
    add(response) {
      if (response.usageMetadata) usage = toUsage(response.usageMetadata);
      if (response.promptFeedback?.blockReason) blockReason = String(response.promptFeedback.blockReason);
      const candidate = response.candidates?.[0];
      if (!candidate) return undefined;
      if (candidate.finishReason) finishReason = String(candidate.finishReason);
      let delta = '';
      for (const part of candidate.content?.parts ?? []) {
        if (part.functionCall?.name) {
          calls.push({ name: part.functionCall.name, args: part.functionCall.args ?? {} });
          if (part.thoughtSignature) signatures.remember(part.functionCall.name, part.functionCall.args ?? {}, part.thoughtSignature);
        } else if (typeof part.text === 'string' && part.thought !== true) {
          // Thought summaries (`thought: true`) are the model's reasoning, never the message.
          delta += part.text;
        }
      }
      text += delta;
      return delta || undefined;
    },
    finish() {
      const toolCalls = calls.map((call) => ({ name: call.name, arguments: toolArguments(call.args) }));
      const message = text.trim() === '' ? null : text;
      if (message === null && toolCalls.length === 0) {
        if (blockReason) throw new ProviderError({ kind: 'invalid', message: `Gemini blocked the prompt (${blockReason}).` });
        if (finishReason && REFUSALS.has(finishReason)) {
          throw new ProviderError({ kind: 'invalid', message: `Gemini withheld the reply (finishReason ${finishReason}).` });
        }
        throw new ProviderError({ kind: 'empty', message: `Gemini returned no text and no function calls (finishReason ${finishReason ?? 'none'}).` });
      }
      const reply: ModelReply = { text: message, toolCalls };
      if (wantsStructured) {
        const structured = parseJsonObject(message);
        if (structured !== undefined) reply.structured = structured;
      }
      if (usage) reply.usage = usage;
      return reply;
    },
  };
}

export function fromGenerateContentResponse(response: GenerateContentResponse, wantsStructured: boolean, signatures: ThoughtSignatures): ModelReply {
  const accumulator = responseAccumulator(wantsStructured, signatures);
  accumulator.add(response);
  return accumulator.finish();
}

/** Thinking tokens are billed as output, so they count as output here. */
function toUsage(meta: NonNullable<GenerateContentResponse['usageMetadata']>): Usage {
  const usage: Usage = {
    inputTokens: meta.promptTokenCount ?? 0,
    outputTokens: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0),
  };
  if (typeof meta.cachedContentTokenCount === 'number') usage.cachedInputTokens = meta.cachedContentTokenCount;
  return usage;
}
