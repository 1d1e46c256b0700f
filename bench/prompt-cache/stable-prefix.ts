import type { ModelRequest } from '@falai/agent';
import { toGeminiRequest } from '../../libs/agent/src/providers/gemini/map-request';
import { ThoughtSignatures } from '../../libs/agent/src/providers/gemini/thought-signatures';
import { toChatCompletionBody } from '../../libs/agent/src/providers/openai/map-request';

// How much of each model request a provider's prompt cache can reuse (issue 25 §5): each request
// is rendered the way the provider reads it for its cache, and its stable prefix is the longest
// prefix it shares with any request sent before it in the same conversation.

export type CacheProvider = 'openai' | 'gemini';

/**
 * A request as text, in the order the provider's cache reads it. OpenAI: tools, then the reply
 * schema (both rendered before the messages), then the messages in order. Gemini: the system
 * instruction, tools and response schema, then the contents in order.
 */
export function cacheOrderText(provider: CacheProvider, req: ModelRequest): string {
  if (provider === 'openai') {
    const body = toChatCompletionBody(req, { model: 'gpt-4.1-mini', responseFormat: 'json_schema', strictSchema: false, contextAt: 'last', allowedTools: true });
    return [JSON.stringify(body.tools ?? []), JSON.stringify(body.response_format ?? null), ...body.messages.map((m) => JSON.stringify(m))].join('\n');
  }
  const body = toGeminiRequest(req, { model: 'gemini-2.5-flash', signatures: new ThoughtSignatures(), requiresSignatures: false });
  const { systemInstruction, tools, responseJsonSchema } = body.config;
  return [JSON.stringify(systemInstruction ?? null), JSON.stringify(tools ?? []), JSON.stringify(responseJsonSchema ?? null), ...body.contents.map((c) => JSON.stringify(c))].join('\n');
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

export interface PrefixShare {
  call: ModelRequest['call'];
  chars: number;
  /** Characters at the start of the request that an earlier request of the conversation also began with. */
  stable: number;
}

/** For each request of one conversation, in the order sent: its length and stable prefix. */
export function stablePrefixes(provider: CacheProvider, requests: readonly ModelRequest[]): PrefixShare[] {
  const sent: string[] = [];
  return requests.map((req) => {
    const text = cacheOrderText(provider, req);
    const stable = sent.reduce((best, earlier) => Math.max(best, commonPrefix(earlier, text)), 0);
    sent.push(text);
    return { call: req.call, chars: text.length, stable };
  });
}

export interface CallTypeShare {
  call: string;
  requests: number;
  /** Characters of all requests of this type together. */
  chars: number;
  /** Stable characters over all characters of this type (what a cache could serve). */
  share: number;
  /** The lowest share of any one request after the conversation's first (null: only one). */
  minLaterShare: number | null;
}

/** Per call type: the share of the characters that is a stable prefix. */
export function sharesByCall(prefixes: readonly PrefixShare[]): CallTypeShare[] {
  const calls = [...new Set(prefixes.map((p) => p.call))];
  return calls.map((call) => {
    const of = prefixes.filter((p) => p.call === call);
    const later = prefixes.slice(1).filter((p) => p.call === call);
    const chars = of.reduce((n, p) => n + p.chars, 0);
    return {
      call,
      requests: of.length,
      chars,
      share: of.reduce((n, p) => n + p.stable, 0) / chars,
      minLaterShare: later.length ? Math.min(...later.map((p) => p.stable / p.chars)) : null,
    };
  });
}
