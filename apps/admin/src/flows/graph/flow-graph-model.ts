// A flow's form values as a graph (nodes and labelled edges), for the flow editor's graph view.
// Pure data, no React: the layout and the drawing are FlowGraph's.
import { FLOW_TARGET, type FlowForm, type StepForm, type TargetForm, type TriggerForm } from '../flow-form.js';

export type GraphNodeKind = 'trigger' | 'step' | 'end' | 'flow';

export interface GraphNode {
  id: string;
  kind: GraphNodeKind;
  /** The first line: the step id, the trigger's kind, "End", the chained flow. */
  title: string;
  /** The step's kind (prompt, collect, …) on step nodes. */
  stepKind?: StepForm['kind'];
  /** Short lines under the title: tools, fields, the text said, the action done. */
  details: string[];
  /** The step's index in the flow (step nodes), or the trigger's (trigger nodes). */
  index?: number;
  /** The engine's refusal of the last publish, when its path is inside this node. */
  error?: string;
  /** Step nodes: the step's share (0..1) of the agent's cost, when it cost anything (docs/cost.md). */
  costShare?: number;
}

export interface GraphEdge {
  id: string;
  source: string;
  target: string;
  label: string;
}

export interface FlowGraph {
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** The part of a publish error the graph reads: its JSON path into the agent config. */
export interface GraphError {
  message: string;
  path: (string | number)[];
}

const END_ID = 'end';
const stepNodeId = (i: number) => `step-${i}`;
const clip = (s: string, n = 40) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function triggerTitle(t: TriggerForm): string {
  switch (t.kind) {
    case 'event':
      return `event: ${t.event || '?'}`;
    case 'silence':
      return `silence: ${t.silence || '?'}`;
    case 'mention':
      return 'mention';
    default:
      return 'message';
  }
}

function triggerDetails(t: TriggerForm): string[] {
  const phrases = (t.message ?? []).slice(0, 3).map((p) => `“${clip(p, 30)}”`);
  const more = (t.message ?? []).length > 3 ? [`+${(t.message ?? []).length - 3} more`] : [];
  const extract = t.extract?.length ? [`extracts: ${t.extract.join(', ')}`] : [];
  return [...phrases, ...more, ...extract];
}

function stepDetails(s: StepForm): string[] {
  const out: string[] = [];
  if (s.kind === 'say' && s.say) out.push(`says “${clip(s.say)}”`);
  if ((s.kind === 'prompt' || s.kind === 'collect') && s.prompt) out.push(`prompt: ${clip(s.prompt)}`);
  if (s.kind === 'collect' && s.collect?.length) out.push(`fields: ${s.collect.join(', ')}`);
  if ((s.kind === 'prompt' || s.kind === 'collect') && (s.noTools || s.tools?.length)) out.push(s.noTools ? 'tools: none' : `tools: ${s.tools.join(', ')}`);
  if (s.kind === 'do' && s.action) out.push(`does: ${s.action}`);
  if (s.kind === 'wait') out.push(s.wait?.mode === 'event' ? `waits for: ${s.wait.event || '?'}` : `waits: ${s.wait?.duration || '?'}`);
  return out;
}

/**
 * Where a target goes: '' = `fallback` (the kind's default), "end", a chained flow, or a step
 * of this flow by id (an unknown id goes nowhere: the form shows that error, the graph no edge).
 */
function resolve(target: TargetForm | undefined, fallback: string | null, stepIds: Map<string, number>, chained: Set<string>): string | null {
  if (!target) return fallback;
  if (target === 'end') return END_ID;
  if (target.startsWith(FLOW_TARGET)) {
    const flowId = target.slice(FLOW_TARGET.length);
    chained.add(flowId);
    return `flow:${flowId}`;
  }
  const i = stepIds.get(target);
  return i === undefined ? null : stepNodeId(i);
}

/** The publish error's message for the node its path lands in (`path` after ['flows', flowIndex]). */
function errorTarget(path: (string | number)[]): string | null {
  const [key, i] = path;
  if (key === 'steps' && typeof i === 'number') return stepNodeId(i);
  if (key === 'on' && typeof i === 'number') return `trigger-${i}`;
  return null;
}

/**
 * Triggers as entry nodes into the first step; steps as nodes; `then`, `else`, `onFail`,
 * branches and chains (`then: { flow }`) as labelled edges; one End node where runs finish
 * (labelled with the flow's onEnd). `error` (a publish refusal) is attached to its node, and
 * `stepShares` (step id → share of the agent's cost) to the steps that cost something.
 */
export function flowGraph(flow: FlowForm, flowIndex: number, error?: GraphError | null, stepShares?: ReadonlyMap<string, number>): FlowGraph {
  const steps = flow.steps ?? [];
  const stepIds = new Map(steps.map((s, i) => [s.id, i] as [string, number]));
  const chained = new Set<string>();
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const edge = (source: string, target: string | null, label: string) => {
    if (target) edges.push({ id: `${source}->${target}:${label}:${edges.length}`, source, target, label });
  };
  const first = steps.length ? stepNodeId(0) : END_ID;

  (flow.on ?? []).forEach((t, i) => {
    nodes.push({ id: `trigger-${i}`, kind: 'trigger', title: triggerTitle(t), details: triggerDetails(t), index: i });
    edge(`trigger-${i}`, first, 'starts');
  });
  steps.forEach((s, i) => {
    const id = stepNodeId(i);
    const next = i + 1 < steps.length ? stepNodeId(i + 1) : END_ID;
    const costShare = s.id ? stepShares?.get(s.id) : undefined;
    nodes.push({ id, kind: 'step', title: s.id || `step ${i + 1}`, stepKind: s.kind, details: stepDetails(s), index: i, ...(costShare !== undefined && { costShare }) });
    edge(id, resolve(s.then, next, stepIds, chained), s.kind === 'if' ? 'if it holds' : 'then');
    if (s.kind === 'if') edge(id, resolve(s.else, END_ID, stepIds, chained), 'else');
    if (s.kind === 'wait' && s.else) edge(id, resolve(s.else, null, stepIds, chained), 'else');
    if (s.kind === 'do' && s.onFail) edge(id, resolve(s.onFail, null, stepIds, chained), 'on fail');
    if (s.kind === 'prompt' || s.kind === 'collect') {
      (s.branches ?? []).forEach((b, j) => edge(id, resolve(b.then, null, stepIds, chained), `branch ${j + 1}${b.when ? `: ${clip(b.when, 24)}` : ''}`));
    }
  });
  if (edges.some((e) => e.target === END_ID) || steps.length === 0) {
    nodes.push({ id: END_ID, kind: 'end', title: 'End', details: [flow.onEnd ? `after the last step: ${flow.onEnd}` : 'the run ends'] });
  }
  for (const flowId of chained) nodes.push({ id: `flow:${flowId}`, kind: 'flow', title: `flow ${flowId}`, details: ['chained: starts that flow'] });

  if (error && error.path[0] === 'flows' && error.path[1] === flowIndex) {
    const target = errorTarget(error.path.slice(2));
    const node = nodes.find((n) => n.id === target);
    if (node) node.error = error.message;
  }
  return { nodes, edges };
}
