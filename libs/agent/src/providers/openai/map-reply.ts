// Chat Completions response (whole or streamed) → ModelReply. Both paths end in `finishReply`,
// so a streamed round and a plain one produce the same reply for the same content.
import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions/completions';
import type { CompletionUsage } from 'openai/resources/completions';
import type { ModelReply, Usage } from '../../provider';
import { ProviderError } from '../../provider';
import { parseJsonObject } from '../structured';
import type { StreamAccumulator } from '../round';
import { toolArguments } from '../tool-arguments';

interface RawReply {
  content: string | null;
  refusal: string | null;
  toolCalls: { name: string; arguments: string }[];
  finishReason: string | null;
  usage?: CompletionUsage | null;
}

export function fromChatCompletion(completion: ChatCompletion, wantsStructured: boolean): ModelReply {
  const choice = completion.choices?.[0];
  const message = choice?.message;
  const toolCalls = (message?.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [{ name: call.function.name, arguments: call.function.arguments }] : [],
  );
  return finishReply(
    {
      content: message?.content ?? null,
      refusal: message?.refusal ?? null,
      toolCalls,
      finishReason: choice?.finish_reason ?? null,
      usage: completion.usage,
    },
    wantsStructured,
  );
}

/** Reassembles a stream: text deltas pass through, tool-call fragments join by `index`. */
export function chunkAccumulator(wantsStructured: boolean): StreamAccumulator<ChatCompletionChunk> {
  let content = '';
  let refusal = '';
  let finishReason: string | null = null;
  let usage: CompletionUsage | null | undefined;
  const calls = new Map<number, { name: string; arguments: string }>();
  return {
    add(chunk) {
      if (chunk.usage) usage = chunk.usage;
      const choice = chunk.choices?.[0];
      if (!choice) return undefined;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      const delta = choice.delta ?? {};
      if (delta.refusal) refusal += delta.refusal;
      for (const fragment of delta.tool_calls ?? []) {
        const call = calls.get(fragment.index) ?? { name: '', arguments: '' };
        if (fragment.function?.name) call.name += fragment.function.name;
        if (fragment.function?.arguments) call.arguments += fragment.function.arguments;
        calls.set(fragment.index, call);
      }
      if (delta.content) {
        content += delta.content;
        return delta.content;
      }
      return undefined;
    },
    finish() {
      const toolCalls = [...calls.entries()].sort(([a], [b]) => a - b).map(([, call]) => call);
      return finishReply(
        { content: content === '' ? null : content, refusal: refusal === '' ? null : refusal, toolCalls, finishReason, usage },
        wantsStructured,
      );
    },
  };
}

function finishReply(raw: RawReply, wantsStructured: boolean): ModelReply {
  const toolCalls = raw.toolCalls.map((call) => ({ name: call.name, arguments: toolArguments(call.arguments) }));
  const text = raw.content !== null && raw.content.trim() !== '' ? raw.content : null;
  if (text === null && toolCalls.length === 0) {
    if (raw.refusal) throw new ProviderError({ kind: 'invalid', message: `The model refused: ${raw.refusal}` });
    if (raw.finishReason === 'content_filter') {
      throw new ProviderError({ kind: 'invalid', message: 'The reply was withheld by the content filter.' });
    }
    throw new ProviderError({
      kind: 'empty',
      message: `The model returned no text and no tool calls (finish_reason: ${raw.finishReason ?? 'none'}).`,
    });
  }
  const reply: ModelReply = { text, toolCalls };
  if (wantsStructured) {
    const structured = parseJsonObject(text);
    if (structured !== undefined) reply.structured = structured;
  }
  const usage = toUsage(raw.usage);
  if (usage) reply.usage = usage;
  return reply;
}

function toUsage(usage: CompletionUsage | null | undefined): Usage | undefined {
  if (!usage) return undefined;
  const result: Usage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  const cached = usage.prompt_tokens_details?.cached_tokens;
  if (typeof cached === 'number') result.cachedInputTokens = cached;
  return result;
}
