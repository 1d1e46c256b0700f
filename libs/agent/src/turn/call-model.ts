// Every model call of a turn goes through here: it counts the call, sums usage, traces the
// latency, streams text when the turn streams, and turns any failure into a ProviderError.
import { type ModelReply, type ModelRequest, ProviderError } from '../provider';
import type { SpentBy } from '../types/turn';
import { EnvelopeMessageDecoder } from './message-stream';
import { addUsage, type DeltaSink, type TurnState } from './state';

/** `spentBy` names the run and step the call speaks for (cost attribution); none for understand and idle. */
export async function callModel(state: TurnState, req: ModelRequest, spentBy?: SpentBy): Promise<ModelReply> {
  const { clock, provider } = state.def;
  const by = spentBy ? { spentBy } : {};
  const started = clock.now().getTime();
  state.llmCalls += 1;
  try {
    const reply =
      state.sink && req.call === 'speak' ? await streamed(state, req, state.sink) : await provider.generate(req);
    state.trace.push({ type: 'model', call: req.call, round: req.round, ms: clock.now().getTime() - started, ...(reply.usage ? { usage: reply.usage } : {}), ...by });
    addUsage(state, reply.usage);
    return normalize(reply);
  } catch (err) {
    const error = asProviderError(err);
    state.trace.push({
      type: 'model',
      call: req.call,
      round: req.round,
      ms: clock.now().getTime() - started,
      error: { kind: error.kind, message: error.message },
      ...by,
    });
    throw error;
  }
}

/**
 * Only the text of the envelope's `message` reaches the sink, never the JSON around it (a round
 * in plain text streams as is). A reply whose text carried no message but whose `structured`
 * does (a provider that parsed it itself) streams that message once, whole.
 */
async function streamed(state: TurnState, req: ModelRequest, sink: DeltaSink): Promise<ModelReply> {
  const { provider } = state.def;
  const decoder = new EnvelopeMessageDecoder();
  let sent = false;
  const send = (raw: string): void => {
    const text = decoder.push(raw);
    if (text) {
      sent = true;
      sink(text);
    }
  };
  const finish = (reply: ModelReply): ModelReply => {
    const structured = reply.structured as { message?: unknown } | undefined;
    if (!sent && typeof structured?.message === 'string' && structured.message) sink(structured.message);
    return reply;
  };
  if (!provider.stream) {
    const reply = await provider.generate(req);
    if (reply.text) send(reply.text);
    return finish(reply);
  }
  for await (const chunk of provider.stream(req)) {
    if ('delta' in chunk) {
      if (chunk.delta) send(chunk.delta);
    } else {
      return finish(chunk.reply);
    }
  }
  throw new ProviderError({ kind: 'empty', message: `${provider.name} ended its stream without a reply` });
}

// A provider written in plain JS may leave toolCalls out; the engine reads `[]`.
function normalize(reply: ModelReply): ModelReply {
  return Array.isArray(reply.toolCalls) ? reply : { ...reply, toolCalls: [] };
}

/** Anything a provider throws that is not a ProviderError counts as an `unknown` failure. */
export function asProviderError(err: unknown): ProviderError {
  if (err instanceof ProviderError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return new ProviderError({ kind: 'unknown', message, cause: err });
}
