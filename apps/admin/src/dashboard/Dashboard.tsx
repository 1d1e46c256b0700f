import { Alert, Box, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider, useGetList } from 'react-admin';
import type { AdminStats, ConsoleDataProvider } from '../api/data-provider';
import { CostPanel } from './CostPanel';
import { UsageCharts } from './UsageCharts';
import { isoDay, readUsageDays, readUsageSummary, type UsageFilter, type UsageSummary } from './usage-data';

const TILES: { key: keyof AdminStats; label: string }[] = [
  { key: 'sessions', label: 'Sessions' },
  { key: 'activeSessions', label: 'Active sessions' },
  { key: 'messages', label: 'Messages' },
  { key: 'queuedMessages', label: 'Waiting for a reply' },
  { key: 'turns', label: 'Turns' },
  { key: 'llmCalls', label: 'LLM calls' },
];

const SUMMARY: { label: string; value: (s: UsageSummary) => number | null; testId: string }[] = [
  { label: 'Turns in range', value: (s) => s.turns, testId: 'usage-turns' },
  { label: 'LLM calls in range', value: (s) => s.llmCalls, testId: 'usage-llmCalls' },
  { label: 'Tokens in', value: (s) => s.inputTokens, testId: 'usage-inputTokens' },
  { label: 'Tokens out', value: (s) => s.outputTokens, testId: 'usage-outputTokens' },
  { label: 'Latency p50 (ms)', value: (s) => s.latencyMs.p50, testId: 'usage-p50' },
  { label: 'Latency p95 (ms)', value: (s) => s.latencyMs.p95, testId: 'usage-p95' },
  { label: 'Deferred turns', value: (s) => s.deferredTurns, testId: 'usage-deferred' },
  { label: 'Failed turns', value: (s) => s.failedTurns, testId: 'usage-failed' },
];

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5">{value}</Typography>
      </CardContent>
    </Card>
  );
}

const show = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString());
const GRID = { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', gap: 2 } as const;

/** Headline counts, then usage from the daily roll-ups for a date range and agent. */
export function Dashboard() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const stats = useQuery({ queryKey: ['stats'], queryFn: () => dataProvider.getStats() });
  const agents = useGetList<{ id: string; name: string }>('agents', { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
  const [filter, setFilter] = useState<UsageFilter>({ from: isoDay(-13), to: isoDay(0), agentId: '' });
  const usage = useQuery({ queryKey: ['usage', filter], queryFn: () => readUsageDays(dataProvider, filter) });
  const summary = useQuery({ queryKey: ['usage-summary', filter], queryFn: () => readUsageSummary(filter) });
  const agentName = (id: string) => agents.data?.find((a) => a.id === id)?.name ?? id.slice(0, 8);

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Title title="Dashboard" />
      {stats.error ? <Alert severity="error">Could not load the numbers: {stats.error.message}</Alert> : null}
      <Box sx={GRID}>
        {TILES.map(({ key, label }) => (
          <Tile key={key} testId={`stat-${key}`} label={label} value={stats.isPending ? '…' : show(stats.data?.[key])} />
        ))}
      </Box>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <Typography variant="h6" sx={{ mr: 2 }}>
          Usage
        </Typography>
        <TextField type="date" size="small" label="From" value={filter.from} onChange={(e) => e.target.value && setFilter({ ...filter, from: e.target.value })} InputLabelProps={{ shrink: true }} sx={{ width: 180 }} />
        <TextField type="date" size="small" label="To" value={filter.to} onChange={(e) => e.target.value && setFilter({ ...filter, to: e.target.value })} InputLabelProps={{ shrink: true }} sx={{ width: 180 }} />
        <TextField select size="small" label="Agent" value={filter.agentId ?? ''} onChange={(e) => setFilter({ ...filter, agentId: e.target.value })} sx={{ width: 260 }}>
          <MenuItem value="">All agents</MenuItem>
          {(agents.data ?? []).map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      {summary.error ? <Alert severity="error">Could not load usage: {summary.error.message}</Alert> : null}
      <Box sx={GRID}>
        {SUMMARY.map((s) => (
          <Tile key={s.testId} testId={s.testId} label={s.label} value={summary.isPending ? '…' : show(summary.data ? s.value(summary.data) : null)} />
        ))}
      </Box>
      {usage.error ? <Alert severity="error">Could not load usage per day: {usage.error.message}</Alert> : null}
      {usage.isPending ? (
        <Typography color="text.secondary">Loading usage…</Typography>
      ) : usage.data?.length === 0 ? (
        <Typography color="text.secondary">No turns in this range yet.</Typography>
      ) : usage.data ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(520px, 1fr))', gap: 2 }}>
          <UsageCharts rows={usage.data} filter={filter} agentName={agentName} />
        </Box>
      ) : null}
      <CostPanel filter={filter} costMicros={summary.data?.costMicros} costPerResolvedMicros={summary.data?.costPerResolvedMicros} />
    </Box>
  );
}
