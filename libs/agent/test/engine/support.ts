// Shared builders for the engine's tests: a fake clock, a scripted model, small agents.
import { fakeClock, falai, ScriptedProvider, type AnyAction, type AnyCondition, type AnyTool, type FieldsDef, type Flow, type IdleConfig, type ModelRequest, type ScriptReply, type Store } from '@falai/agent';

export const T0 = '2026-12-02T12:00:00.000Z';

export type Speaker = (req: ModelRequest, index: number) => ScriptReply | undefined | Promise<ScriptReply | undefined>;

/** A model that answers understand calls with `understand` (default: judges nothing) and speak calls with `speak`. */
export function model(speak: Speaker, understand: Speaker = () => ({ structured: { flows: {}, fields: {} } })): ScriptedProvider {
  return new ScriptedProvider((req, index) => (req.call === 'understand' ? understand(req, index) : speak(req, index)));
}

/** Replies `text` to every speak round. */
export function says(text: string): Speaker {
  return () => ({ text, structured: { message: text } });
}

/** Rounds in order: `calls` for round n (tool calls), then the final reply. */
export function rounds(...steps: (ScriptReply | ((req: ModelRequest) => ScriptReply))[]): Speaker {
  return (req) => {
    const step = steps[Math.min(req.round, steps.length) - 1];
    return typeof step === 'function' ? step(req) : step;
  };
}

export function call(name: string, args: Record<string, unknown> | string = {}) {
  return { name, arguments: args };
}

export interface AgentSetup {
  fields?: FieldsDef;
  tools?: AnyTool[];
  flows?: Flow[];
  idle?: IdleConfig;
  maxToolLoops?: number;
  provider: ScriptedProvider;
  store?: Store;
  clock?: ReturnType<typeof fakeClock>;
  instructions?: string;
  actions?: AnyAction[];
  conditions?: AnyCondition[];
}

export function agent(setup: AgentSetup) {
  const clock = setup.clock ?? fakeClock(T0);
  const f = falai<{ tenant: string }>().fields(setup.fields ?? {});
  const built = f.agent({
    name: 'Test',
    provider: setup.provider,
    tools: setup.tools ?? [],
    flows: (setup.flows ?? []) as Flow<string>[],
    idle: setup.idle,
    maxToolLoops: setup.maxToolLoops,
    clock,
    store: setup.store,
    instructions: setup.instructions,
    actions: setup.actions,
    conditions: setup.conditions,
  });
  return Object.assign(built, { clock });
}

/** The tool items the model read in the request of `round` (a speak call's history). */
export function toolItems(req: ModelRequest) {
  return req.history.filter((item): item is Extract<typeof item, { role: 'tool' }> => item.role === 'tool');
}

export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}
