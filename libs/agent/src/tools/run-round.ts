// One round's tool calls: prepared, grouped (consecutive safe calls together with Promise.all,
// any other call alone and in order), traced in call order, never throwing.
import type { HistoryItem, ModelToolCall } from '../provider';
import type { AnyTool, ToolCtx } from '../types/tool';
import type { ToolTrace } from '../types/turn';
import type { Clock } from '../types/agent';
import { isPlainObject } from '../definition/json-checks';
import { type GateResult, isSafe, passGates, type PreparedCall } from './gates';
import { toolFor } from './offered';
import { errorMessage } from './serialize';

export interface RoundCalls {
  round: number;
  calls: readonly ModelToolCall[];
  offered: readonly AnyTool[];
  /** Context the calls share: data and history as they stood at the start of the round. */
  ctx: Omit<ToolCtx, 'now'>;
  clock: Clock;
}

export interface RoundOutcome {
  /** The assistant item with tool_calls, then one tool item per call, in call order. */
  items: HistoryItem[];
  /** Data patches in call order (not finishing order). */
  patches: Record<string, unknown>[];
  traces: ToolTrace[];
}

export async function runToolRound(round: RoundCalls, text: string | null): Promise<RoundOutcome> {
  const prepared = round.calls.map((call, index) => prepare(round, call, index));
  const results: { result: GateResult; ms: number }[] = new Array(prepared.length);

  for (let i = 0; i < prepared.length; ) {
    if (!isSafe(prepared[i])) {
      results[i] = await timed(round, prepared[i]);
      i += 1;
      continue;
    }
    let end = i;
    while (end < prepared.length && isSafe(prepared[end])) end += 1;
    const group = prepared.slice(i, end);
    const done = await Promise.all(group.map((call) => timed(round, call)));
    done.forEach((r, k) => (results[i + k] = r));
    i = end;
  }

  const items: HistoryItem[] = [
    {
      role: 'assistant',
      content: text && text.length > 0 ? text : null,
      tool_calls: prepared.map((c) => ({ id: c.id, name: c.name, arguments: c.args })),
    },
  ];
  const patches: Record<string, unknown>[] = [];
  const traces: ToolTrace[] = [];
  prepared.forEach((call, i) => {
    const { result, ms } = results[i];
    items.push({ role: 'tool', tool_call_id: call.id, name: call.name, content: result.content });
    if (result.data) patches.push(result.data);
    traces.push({
      type: 'tool',
      round: round.round,
      index: call.index,
      id: call.id,
      tool: call.name,
      arguments: result.args,
      gate: result.gate,
      result: result.content,
      ms,
    });
  });
  return { items, patches, traces };
}

function prepare(round: RoundCalls, call: ModelToolCall, index: number): PreparedCall {
  const base = { id: `call-${round.round}-${index}`, index, name: String(call.name), tool: toolFor(round.offered, String(call.name)) };
  if (typeof call.arguments !== 'string') {
    return { ...base, args: isPlainObject(call.arguments) ? call.arguments : {} };
  }
  try {
    const parsed: unknown = JSON.parse(call.arguments || '{}');
    if (isPlainObject(parsed)) return { ...base, args: parsed };
    return { ...base, args: {}, parseError: 'arguments are not a JSON object' };
  } catch (err) {
    return { ...base, args: {}, parseError: `arguments are not valid JSON (${errorMessage(err)})` };
  }
}

async function timed(round: RoundCalls, call: PreparedCall): Promise<{ result: GateResult; ms: number }> {
  const started = round.clock.now();
  // Each call gets its own copies, so one handler cannot change what a parallel one reads.
  const ctx: ToolCtx = {
    ...round.ctx,
    data: { ...(round.ctx.data as Record<string, unknown>) },
    history: [...round.ctx.history],
    now: started,
  };
  const result = await passGates(call, ctx);
  return { result, ms: round.clock.now().getTime() - started.getTime() };
}
