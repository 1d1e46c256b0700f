import DownloadIcon from '@mui/icons-material/Download';
import { Alert, Box, Button, Card, CardContent, MenuItem, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Title, useDataProvider, useGetList } from 'react-admin';
import type { AdminStats, ConsoleDataProvider } from '../api/data-provider';
import { FailuresByCode } from './FailuresByCode';
import { ChannelBreakdown } from './ChannelBreakdown';
import { FirstSteps } from './FirstSteps';
import { downloadText, latencyLabel, LIVE_REFRESH_MS, readChannelFigures, readRangeLatency, usageCsv, type RangeLatency } from './live-usage';
import { CostPanel } from './CostPanel';
import { UsageCharts } from './UsageCharts';
import { isoDay, readUsageDays, readUsageSummary, type ConsoleUsage, type UsageFilter, type UsageSummary } from './usage-data';

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
  { label: 'Deferred turns', value: (s) => s.deferredTurns, testId: 'usage-deferred' },
  { label: 'Failed turns', value: (s) => s.failedTurns, testId: 'usage-failed' },
];

/** The console's own runs, never counted as customer usage: one row per source. */
const CONSOLE_LINES: { source: keyof UsageSummary['console']; label: string }[] = [
  { source: 'playground', label: 'Playground' },
  { source: 'conversation-test', label: 'Live conversation tests' },
];

function consoleLine(u: ConsoleUsage | undefined): string {
  if (!u) return '—';
  const count = (n: number, one: string) => `${n.toLocaleString()} ${one}${n === 1 ? '' : 's'}`;
  return `${count(u.turns, 'turn')} · ${count(u.llmCalls, 'LLM call')} · ${count(u.inputTokens + u.outputTokens, 'token')}`;
}

/** The latency cards read the same answer as the latency chart, so the two always agree. */
const LATENCY: { label: string; value: (l: RangeLatency) => number | null; testId: string }[] = [
  { label: 'Latency p50 (ms)', value: (l) => l.p50, testId: 'usage-p50' },
  { label: 'Latency p95 (ms)', value: (l) => l.p95, testId: 'usage-p95' },
];

function Tile({ label, value, testId, note }: { label: string; value: string; testId: string; note?: string }) {
  return (
    <Card data-testid={testId}>
      <CardContent>
        <Typography color="text.secondary" variant="body2">
          {label}
        </Typography>
        <Typography variant="h5" data-testid={`${testId}-value`}>
          {value}
        </Typography>
        {note ? (
          <Typography color="text.secondary" variant="caption">
            {note}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

const show = (n: number | null | undefined) => (n === null || n === undefined ? '—' : n.toLocaleString());
// Two tiles a row on a phone (one a row left most numbers below the fold).
const GRID = { display: 'grid', gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', sm: 'repeat(auto-fill, minmax(170px, 1fr))' }, gap: 2 } as const;

/**
 * First steps for a new tenant, headline counts, then usage for a date range and agent. Every
 * number re-reads itself every LIVE_REFRESH_MS (react-query keeps the last answer on screen).
 */
export function Dashboard() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const live = { refetchInterval: LIVE_REFRESH_MS, refetchIntervalInBackground: false } as const;
  const stats = useQuery({ queryKey: ['stats'], queryFn: () => dataProvider.getStats(), ...live });
  const agents = useGetList<{ id: string; name: string }>('agents', { pagination: { page: 1, perPage: 100 }, sort: { field: 'name', order: 'ASC' } });
  const [filter, setFilter] = useState<UsageFilter>({ from: isoDay(-13), to: isoDay(0), agentId: '' });
  const usage = useQuery({ queryKey: ['usage', filter], queryFn: () => readUsageDays(dataProvider, filter), ...live });
  const summary = useQuery({ queryKey: ['usage-summary', filter], queryFn: () => readUsageSummary(filter), ...live });
  const latency = useQuery({ queryKey: ['usage-latency', filter], queryFn: () => readRangeLatency(filter), ...live });
  const channels = useQuery({ queryKey: ['usage-channels', filter], queryFn: () => readChannelFigures(filter), ...live });
  const agentName = (id: string) => agents.data?.find((a) => a.id === id)?.name ?? id.slice(0, 8);
  const updatedAt = Math.max(stats.dataUpdatedAt, summary.dataUpdatedAt, latency.dataUpdatedAt);

  return (
    <Box sx={{ p: 2, display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Title title="Dashboard" />
      <FirstSteps />
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
        <Typography variant="caption" color="text.secondary" data-testid="dashboard-updated">
          {updatedAt ? `Live: updated ${new Date(updatedAt).toLocaleTimeString()}, every ${LIVE_REFRESH_MS / 1000} s` : ''}
        </Typography>
        <TextField type="date" size="small" label="From" value={filter.from} onChange={(e) => e.target.value && setFilter({ ...filter, from: e.target.value })} InputLabelProps={{ shrink: true }} sx={{ width: 180, maxWidth: '100%' }} />
        <TextField type="date" size="small" label="To" value={filter.to} onChange={(e) => e.target.value && setFilter({ ...filter, to: e.target.value })} InputLabelProps={{ shrink: true }} sx={{ width: 180, maxWidth: '100%' }} />
        <TextField select size="small" label="Agent" value={filter.agentId ?? ''} onChange={(e) => setFilter({ ...filter, agentId: e.target.value })} sx={{ width: 260, maxWidth: '100%' }}>
          <MenuItem value="">All agents</MenuItem>
          {(agents.data ?? []).map((a) => (
            <MenuItem key={a.id} value={a.id}>
              {a.name}
            </MenuItem>
          ))}
        </TextField>
        <Button size="small" startIcon={<DownloadIcon />} disabled={!usage.data?.length} onClick={() => usage.data && downloadText(`usage-${filter.from}-${filter.to}.csv`, usageCsv(usage.data, agentName))}>
          Export usage CSV
        </Button>
      </Box>
      {summary.error ? <Alert severity="error">Could not load usage: {summary.error.message}</Alert> : null}
      <Box sx={GRID}>
        {SUMMARY.map((s) => (
          <Tile key={s.testId} testId={s.testId} label={s.label} value={summary.isPending ? '…' : show(summary.data ? s.value(summary.data) : null)} />
        ))}
        {LATENCY.map((s) => (
          <Tile
            key={s.testId}
            testId={s.testId}
            label={s.label}
            note={latency.data ? `${latencyLabel(latency.data.method)} (${latency.data.turns.toLocaleString()} turns)` : undefined}
            value={latency.isPending ? '…' : show(latency.data ? s.value(latency.data) : null)}
          />
        ))}
      </Box>
      <Box data-testid="usage-console">
        <Typography variant="subtitle2">Console runs (not customer traffic; they count toward the monthly quota)</Typography>
        {CONSOLE_LINES.map(({ source, label }) => (
          <Typography key={source} variant="body2" color="text.secondary" data-testid={`usage-console-${source}`}>
            {label}: {summary.isPending ? '…' : consoleLine(summary.data?.console[source])}
          </Typography>
        ))}
      </Box>
      <FailuresByCode filter={filter} />
      {latency.error ? <Alert severity="error">Could not load latency: {latency.error.message}</Alert> : null}
      {channels.error ? <Alert severity="warning">No per-channel breakdown: {channels.error.message}</Alert> : channels.data ? <ChannelBreakdown rows={channels.data} /> : null}
      {usage.error ? <Alert severity="error">Could not load usage per day: {usage.error.message}</Alert> : null}
      {/* The charts wait for the channel breakdown above them too: appearing later, it would push
          them down after they had been drawn near the top (their script loads near the screen). */}
      {usage.isPending || channels.isPending ? (
        <Typography color="text.secondary">Loading usage…</Typography>
      ) : usage.data?.length === 0 ? (
        <Typography color="text.secondary">No turns in this range yet.</Typography>
      ) : usage.data ? (
        <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(520px, 100%), 1fr))', gap: 2 }}>
          <UsageCharts rows={usage.data} filter={filter} agentName={agentName} latency={latency.data} />
        </Box>
      ) : null}
      <CostPanel filter={filter} costMicros={summary.data?.costMicros} costPerResolvedMicros={summary.data?.costPerResolvedMicros} />
    </Box>
  );
}
