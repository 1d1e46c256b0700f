import { Alert, Box, Button, Card, CardContent, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { EChart } from './EChart';
import type { EChartsOption } from 'echarts';
import { formatMicros } from '../prices/money';
import { BudgetNotices } from './BudgetNotices';
import { downloadCostCsv, readCost, type CostBreakdown, type CostDimension } from './cost-data';
import type { UsageFilter } from './usage-data';

const BREAKDOWNS: { by: CostDimension; title: string }[] = [
  { by: 'agent', title: 'Cost by agent' },
  { by: 'step', title: 'Cost by flow step' },
  { by: 'model', title: 'Cost by model' },
  { by: 'channel', title: 'Cost by channel' },
];

/** Micros as a number of currency units, for chart axes only (the tables show exact amounts). */
const units = (micros: string) => Number(BigInt(micros)) / 1_000_000;

function BreakdownCard({ by, title, data }: { by: CostDimension; title: string; data: CostBreakdown }) {
  const rows = data.rows.slice(0, 12);
  const option: EChartsOption = {
    tooltip: { trigger: 'axis', valueFormatter: (v) => `$${Number(v).toFixed(6)}` },
    grid: { left: 160, right: 24, top: 8, bottom: 24 },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', inverse: true, data: rows.map((r) => r.label) },
    series: [{ type: 'bar', data: rows.map((r) => units(r.costMicros)) }],
  };
  return (
    <Card data-testid={`cost-by-${by}`}>
      <CardContent sx={{ overflowX: 'auto' }}>
        <Typography variant="subtitle1">{title}</Typography>
        {rows.length === 0 ? (
          <Typography color="text.secondary">No cost in this range.</Typography>
        ) : (
          <>
            <EChart option={option} style={{ height: Math.max(120, rows.length * 28 + 40) }} />
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>{by}</TableCell>
                  <TableCell align="right">calls</TableCell>
                  <TableCell align="right">cost</TableCell>
                  <TableCell align="right">share</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {rows.map((r) => (
                  <TableRow key={r.label} data-testid="cost-row">
                    <TableCell>
                      {r.label}
                      {r.unpricedCalls ? ` (${r.unpricedCalls} unpriced)` : ''}
                    </TableCell>
                    <TableCell align="right">{r.llmCalls.toLocaleString()}</TableCell>
                    <TableCell align="right">{formatMicros(r.costMicros)}</TableCell>
                    <TableCell align="right">{(r.share * 100).toFixed(1)}%</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** Cost in money for the dashboard's range and agent: totals, breakdowns, CSV. */
export function CostPanel({ filter, costMicros, costPerResolvedMicros }: { filter: UsageFilter; costMicros?: string; costPerResolvedMicros?: string | null }) {
  const breakdowns = useQuery({
    queryKey: ['usage-cost', filter],
    queryFn: () => Promise.all(BREAKDOWNS.map((b) => readCost(b.by, filter))),
  });
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <BudgetNotices />
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6">Cost</Typography>
        <Typography data-testid="cost-total">{costMicros === undefined ? '…' : formatMicros(costMicros)} in range</Typography>
        <Typography color="text.secondary" data-testid="cost-per-resolved">
          {costPerResolvedMicros ? `${formatMicros(costPerResolvedMicros)} per resolved conversation` : 'no resolved conversation in range'}
        </Typography>
        <Button size="small" variant="outlined" onClick={() => void downloadCostCsv(filter)} data-testid="cost-csv">
          Export cost CSV
        </Button>
      </Box>
      {breakdowns.error ? <Alert severity="error">Could not load cost: {breakdowns.error.message}</Alert> : null}
      {breakdowns.data ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(520px, 100%), 1fr))', gap: 2 }}>
          {BREAKDOWNS.map((b, i) => (
            <BreakdownCard key={b.by} by={b.by} title={b.title} data={breakdowns.data[i]} />
          ))}
        </Box>
      ) : null}
    </Box>
  );
}
