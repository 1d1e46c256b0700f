import { Chip, Tooltip } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useRecordContext } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { readCost } from '../dashboard/cost-data';
import { isoDay } from '../dashboard/usage-data';
import { formatMicros } from '../prices/money';

/** The window a step's share of the agent's cost is read over (docs/cost.md). */
const DAYS = 30;

/** This agent's cost by flow step over the last DAYS days, one read shared by every step editor and the graph. */
export function useStepCosts(agentId: string | undefined) {
  return useQuery({
    queryKey: ['step-costs', agentId],
    enabled: Boolean(agentId),
    staleTime: 60_000,
    queryFn: () => readCost('step', { from: isoDay(-(DAYS - 1)), to: isoDay(0), agentId }),
  });
}

/** The step's share of what the agent's model calls cost ("the confirmation step costs 40% of the bill"). */
export function StepCostShare({ flow, step }: { flow: number; step: number }) {
  const agent = useRecordContext<{ id: string }>();
  const flowId = useWatch({ name: `draft.flows.${flow}.id` }) as string | undefined;
  const stepId = useWatch({ name: `draft.flows.${flow}.steps.${step}.id` }) as string | undefined;
  const costs = useStepCosts(agent?.id);
  const row = costs.data?.rows.find((r) => r.key.part === 'step' && r.key.flowId === flowId && r.key.stepId === stepId);
  if (!row) return null;
  return (
    <Tooltip title={`${formatMicros(row.costMicros)} over ${row.llmCalls.toLocaleString()} model calls in the last ${DAYS} days`}>
      <Chip size="small" variant="outlined" data-testid="step-cost-share" label={`${(row.share * 100).toFixed(1)}% of the agent's cost`} sx={{ alignSelf: 'flex-start' }} />
    </Tooltip>
  );
}
