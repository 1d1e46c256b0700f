import '@xyflow/react/dist/style.css';
import { Box, Chip, Typography } from '@mui/material';
import { Background, Controls, Handle, MarkerType, Position, ReactFlow, useNodesInitialized, useReactFlow, useStore, type Edge, type Node, type NodeProps } from '@xyflow/react';
import { useEffect, useMemo, useState } from 'react';
import type { FlowGraph, GraphNode } from './flow-graph-model';
import { layoutGraph, NODE_WIDTH, nodeHeight } from './graph-layout';

type GraphNodeData = GraphNode & Record<string, unknown>;

const BORDER: Record<GraphNode['kind'], string> = { trigger: 'success.main', step: 'primary.main', end: 'grey.500', flow: 'secondary.main' };

/** One node: title and kind, its details, a step's share of the agent's cost, and the publish error in red when the engine refused it. */
function FlowNode({ data }: NodeProps<Node<GraphNodeData>>) {
  return (
    <Box
      data-testid={`graph-node-${data.id}`}
      data-kind={data.kind}
      sx={{
        width: NODE_WIDTH,
        minHeight: nodeHeight(data),
        boxSizing: 'border-box',
        p: 1,
        borderRadius: 1,
        border: 2,
        borderColor: data.error ? 'error.main' : BORDER[data.kind],
        bgcolor: 'background.paper',
        cursor: data.kind === 'step' ? 'pointer' : 'default',
      }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5 }}>
        <Typography variant="subtitle2" noWrap sx={{ flex: 1 }}>
          {data.title}
        </Typography>
        <Chip size="small" label={data.stepKind ?? data.kind} />
      </Box>
      {data.details.map((d, i) => (
        <Typography key={i} variant="caption" component="div" noWrap color="text.secondary">
          {d}
        </Typography>
      ))}
      {data.costShare !== undefined && (
        <Typography variant="caption" component="div" noWrap color="secondary" data-testid="graph-node-cost">
          {(data.costShare * 100).toFixed(1)}% of the agent's cost
        </Typography>
      )}
      {data.error && (
        <Typography variant="caption" component="div" color="error" data-testid="graph-node-error" sx={{ display: '-webkit-box', WebkitLineClamp: 2, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}>
          {data.error}
        </Typography>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </Box>
  );
}

const NODE_TYPES = { flowNode: FlowNode };

/** Never zoomed in past life size: a flow of two steps stays readable, not huge. */
const FIT = { padding: 0.08, maxZoom: 1 } as const;

/**
 * Fits the flow into view whenever the pane gets a size: the editor's tabs mount the graph while
 * hidden (no size), so the fit React Flow does at start would leave it a speck in the corner.
 */
function FitWhenSized() {
  const { fitView } = useReactFlow();
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const measured = useNodesInitialized();
  useEffect(() => {
    if (width > 0 && height > 0 && measured) void fitView(FIT);
  }, [width, height, measured, fitView]);
  return null;
}

/**
 * Whether the element has a size now: false while a hidden tab holds it. React Flow measures its
 * nodes when it mounts, so it is mounted only once its pane is visible (and again if it was hidden).
 */
function useHasSize(): [(el: HTMLDivElement | null) => void, boolean] {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [sized, setSized] = useState(false);
  useEffect(() => {
    if (!el) return;
    const check = () => setSized(el.clientWidth > 0 && el.clientHeight > 0);
    check();
    const observer = new ResizeObserver(check);
    observer.observe(el);
    return () => observer.disconnect();
  }, [el]);
  return [setEl, sized];
}

/**
 * A flow drawn as a graph, laid out automatically, read-only (the form is where it is edited):
 * clicking a step node calls `onSelectStep` with its index, and a trigger node `onSelectTrigger`.
 */
export default function FlowGraphView({
  graph,
  onSelectStep,
  onSelectTrigger,
  testId,
}: {
  graph: FlowGraph;
  onSelectStep: (index: number) => void;
  onSelectTrigger: (index: number) => void;
  testId: string;
}) {
  const { nodes, edges } = useMemo(() => {
    const at = layoutGraph(graph);
    const nodes: Node<GraphNodeData>[] = graph.nodes.map((n) => ({
      id: n.id,
      type: 'flowNode',
      position: at.get(n.id) ?? { x: 0, y: 0 },
      data: n as GraphNodeData,
      draggable: false,
      connectable: false,
      ariaLabel: `${n.kind} ${n.title}`,
    }));
    const edges: Edge[] = graph.edges.map((e) => ({
      id: e.id,
      source: e.source,
      target: e.target,
      label: e.label,
      type: 'smoothstep',
      markerEnd: { type: MarkerType.ArrowClosed },
      labelBgPadding: [4, 2],
      labelStyle: { fontSize: 11 },
      data: { label: e.label },
    }));
    return { nodes, edges };
  }, [graph]);

  // A new shape (a step added, removed or re-pointed, an error drawn or gone) fits the view again; typing inside a node does not.
  const shape = useMemo(
    () => `${graph.nodes.map((n) => (n.error ? `${n.id}!` : n.id)).join(',')}|${graph.edges.map((e) => e.id).join(',')}`,
    [graph],
  );

  const [pane, sized] = useHasSize();

  return (
    <Box ref={pane} data-testid={testId} sx={{ height: '100%', minHeight: 320, width: '100%', border: 1, borderColor: 'divider', borderRadius: 1 }}>
      {sized && (
        <ReactFlow
          key={shape}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          fitView
          fitViewOptions={FIT}
          minZoom={0.2}
          nodesDraggable={false}
          nodesConnectable={false}
          edgesFocusable={false}
          onNodeClick={(_, node) => {
            const n = node.data as GraphNodeData;
            if (n.kind === 'step' && n.index !== undefined) onSelectStep(n.index);
            if (n.kind === 'trigger' && n.index !== undefined) onSelectTrigger(n.index);
          }}
        >
          <Background />
          <Controls showInteractive={false} fitViewOptions={FIT} />
          <FitWhenSized />
        </ReactFlow>
      )}
    </Box>
  );
}
