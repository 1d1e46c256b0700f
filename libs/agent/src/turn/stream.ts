// turnStream: the same runTurn, with a sink that queues each round's text as it arrives.
// The last chunk carries the result runTurn returned, so it equals what `turn` gives.
import type { TurnChunk, TurnInput } from '../types/turn';
import type { AgentDefinition } from './definition';
import { runTurn } from './run-turn';

export async function* streamTurn(def: AgentDefinition, input: TurnInput): AsyncGenerator<TurnChunk> {
  const queue: string[] = [];
  let wake: (() => void) | undefined;
  const sink = (delta: string): void => {
    queue.push(delta);
    wake?.();
  };
  let settled = false;
  const running = runTurn(def, input, sink).finally(() => {
    settled = true;
    wake?.();
  });
  // Keep a rejection from being reported as unhandled before we await it below.
  running.catch(() => undefined);

  for (;;) {
    while (queue.length > 0) yield { delta: queue.shift()! };
    if (settled) break;
    await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
  }
  while (queue.length > 0) yield { delta: queue.shift()! };
  yield { done: true, result: await running };
}
