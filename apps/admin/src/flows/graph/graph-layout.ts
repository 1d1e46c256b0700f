import dagre from '@dagrejs/dagre';
import type { FlowGraph, GraphNode } from './flow-graph-model';

export const NODE_WIDTH = 220;
const LINE_HEIGHT = 18;

/** A node's drawn height: title, kind, and a line per detail (one for its cost share, two for an error). */
export function nodeHeight(n: GraphNode): number {
  return 44 + LINE_HEIGHT * (n.details.length + (n.costShare !== undefined ? 1 : 0) + (n.error ? 2 : 0));
}

/**
 * Top-left positions for every node, laid out top to bottom by dagre (entries first, the End
 * last); edges of a flow going back (a loop to an earlier step) are routed by the renderer.
 */
export function layoutGraph(graph: FlowGraph): Map<string, { x: number; y: number }> {
  const g = new dagre.graphlib.Graph({ multigraph: true });
  g.setGraph({ rankdir: 'TB', nodesep: 40, ranksep: 36, marginx: 10, marginy: 10 });
  g.setDefaultEdgeLabel(() => ({}));
  for (const n of graph.nodes) g.setNode(n.id, { width: NODE_WIDTH, height: nodeHeight(n) });
  // Labels take room between ranks so they do not sit on nodes.
  for (const e of graph.edges) g.setEdge(e.source, e.target, { width: 7 * e.label.length, height: 16, labelpos: 'c' }, e.id);
  dagre.layout(g);
  const out = new Map<string, { x: number; y: number }>();
  for (const n of graph.nodes) {
    const p = g.node(n.id);
    out.set(n.id, { x: p.x - NODE_WIDTH / 2, y: p.y - nodeHeight(n) / 2 });
  }
  return out;
}
