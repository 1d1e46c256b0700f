import type { AiProvider, ModelReply, ModelRequest } from '@falai/agent';
import type { RecordedCall } from '@switchboard/queue';

/** What a request looked like, for matching a recorded reply to it on replay. */
export function requestShape(req: ModelRequest): Omit<RecordedCall, 'reply'> {
  return {
    call: req.call,
    round: req.round,
    tools: req.tools.map((t) => t.name).sort(),
    ...(req.schema && { schema: req.schema.name }),
  };
}

/**
 * The agent's real provider, writing down every reply with the shape of the request it answered:
 * what a conversation test replays later. Only `generate` is offered, so the engine never streams
 * (a console run has nobody to stream to).
 */
export class RecordingProvider implements AiProvider {
  readonly name: string;
  readonly model: string;
  calls: RecordedCall[] = [];

  constructor(private readonly inner: AiProvider) {
    this.name = inner.name;
    this.model = inner.model;
  }

  /** The calls recorded since the last take, and a fresh list for the next turn. */
  take(): RecordedCall[] {
    const calls = this.calls;
    this.calls = [];
    return calls;
  }

  async generate(req: ModelRequest): Promise<ModelReply> {
    const reply = await this.inner.generate(req);
    this.calls.push({
      ...requestShape(req),
      reply: structuredClone({
        text: reply.text,
        ...(reply.structured !== undefined && { structured: reply.structured }),
        toolCalls: reply.toolCalls,
        ...(reply.usage && { usage: reply.usage }),
      }),
    });
    return reply;
  }
}
