import { ProviderError, type AiProvider, type ModelReply, type ModelRequest } from '@falai/agent';
import type { RecordedCall, ReplayDivergence } from '@switchboard/queue';
import { requestShape } from './recording-provider';

/**
 * Plays a conversation test's recorded model replies back, turn by turn, in call order: no
 * network, no cost, the same replies every run. A call whose request no longer fits the recorded
 * one at its place (another call kind or round, another structured schema) or that the recording does not have is a divergence: the provider
 * remembers the first one and refuses the call, so the run stops there and reports which call it was.
 * A recorded tool call the agent no longer allows is not a divergence: the engine refuses it
 * (`unavailable`) as it would refuse the model, and the test's expectations see what follows.
 */
export class ReplayProvider implements AiProvider {
  readonly name = 'replay';
  readonly model: string;
  diverged?: ReplayDivergence;
  private turn = 0;
  private index = 0;

  constructor(
    private readonly recording: RecordedCall[][],
    model: string,
  ) {
    this.model = model;
  }

  /** Moves to the recorded calls of turn `turn` (0-based). */
  startTurn(turn: number): void {
    this.turn = turn;
    this.index = 0;
  }

  async generate(req: ModelRequest): Promise<ModelReply> {
    const actual = requestShape(req);
    const recorded = this.recording[this.turn]?.[this.index];
    const place = { turn: this.turn + 1, call: this.index + 1 };
    this.index++;
    const why = recorded ? misfit(recorded, actual) : 'the recording has no reply for this call (the agent now makes more calls)';
    if (why) {
      const shape = recorded && { call: recorded.call, round: recorded.round, tools: recorded.tools, ...(recorded.schema && { schema: recorded.schema }) };
      const message = `turn ${place.turn}, model call ${place.call} (${actual.call}, round ${actual.round}): ${why}`;
      this.diverged ??= { ...place, ...(shape && { recorded: shape }), actual, message };
      throw new ProviderError({ kind: 'invalid', message: `Replay diverged at ${message}` });
    }
    return structuredClone({ ...recorded!.reply, toolCalls: recorded!.reply.toolCalls }) as ModelReply;
  }
}

/** Why a recorded reply cannot answer this request, or undefined when it fits. */
function misfit(recorded: RecordedCall, actual: Omit<RecordedCall, 'reply'>): string | undefined {
  if (recorded.call !== actual.call) return `the recording has a ${recorded.call} call here`;
  if (recorded.round !== actual.round) return `the recording has round ${recorded.round} here`;
  if ((recorded.schema ?? '') !== (actual.schema ?? '')) return `the recorded reply answers the schema "${recorded.schema ?? 'none'}", the request asks for "${actual.schema ?? 'none'}"`;
  return undefined;
}
