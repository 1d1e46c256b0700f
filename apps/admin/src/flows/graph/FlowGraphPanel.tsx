import { Box, Typography } from '@mui/material';
import { lazy, Suspense, useMemo } from 'react';
import { useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { usePublishError } from '../../agents/publish-error';
import type { FlowForm } from '../flow-form';
import { useStepCosts } from '../StepCostShare';
import { flowGraph } from './flow-graph-model';

// The graph library (React Flow and dagre) loads with the first graph shown, not with the console.
const FlowGraphView = lazy(() => import('./FlowGraphView'));

/** Brings a form item into view, puts the cursor in its first input and flashes its outline. */
function openFormItem(testId: string): void {
  const item = document.querySelector<HTMLElement>(`[data-testid="${testId}"]`);
  if (!item) return;
  item.scrollIntoView({ behavior: 'smooth', block: 'start' });
  item.querySelector<HTMLInputElement>('input, textarea')?.focus({ preventScroll: true });
  item.animate?.([{ boxShadow: '0 0 0 3px rgba(25, 118, 210, 0.9)' }, { boxShadow: '0 0 0 3px rgba(25, 118, 210, 0)' }], { duration: 1600 });
}

/**
 * The flow as a graph beside its form, redrawn as the form changes: clicking a step opens that
 * step in the form; the last publish error is drawn on the node it is about, and each step that
 * cost something shows its share of the agent's cost (the same read as the step editor's).
 */
export function FlowGraphPanel({ flow }: { flow: number }) {
  const value = useWatch({ name: `draft.flows.${flow}` }) as FlowForm | undefined;
  const { error } = usePublishError();
  const agent = useRecordContext<{ id: string }>();
  const costs = useStepCosts(agent?.id).data;
  const shares = useMemo(() => {
    const rows = (costs?.rows ?? []).filter((r) => r.key.part === 'step' && r.key.flowId === value?.id);
    return new Map(rows.map((r) => [r.key.stepId, r.share]));
  }, [costs, value?.id]);
  const graph = useMemo(() => (value ? flowGraph(value, flow, error, shares) : null), [value, flow, error, shares]);
  if (!graph) return null;
  return (
    <Box sx={{ height: { xs: 340, md: 420, xl: 560 }, minWidth: 0, mb: 3 }}>
      <Typography variant="subtitle2" sx={{ mb: 0.5 }}>
        Graph
      </Typography>
      <Suspense fallback={<Typography color="text.secondary">Loading the graph…</Typography>}>
        <FlowGraphView
          graph={graph}
          testId={`flow-${flow}-graph`}
          onSelectStep={(i) => openFormItem(`flow-${flow}-step-${i}`)}
          onSelectTrigger={(i) => openFormItem(`flow-${flow}-trigger-${i}`)}
        />
      </Suspense>
    </Box>
  );
}
