import { Alert, Box, Chip, LinearProgress, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useGetOne, useRecordContext } from 'react-admin';
import { JsonBlock } from '../components/JsonBlock';
import { ToolCallResult } from './ToolCallResult';
import { formatMicros } from '../prices/money';
import { outcomePlace, spentByLabel, type ModelTraceEntry, type ToolTraceEntry, type TurnDetail } from './turn-trace';

const n = (v: number | undefined) => (v ?? 0).toLocaleString();

const GATE_COLOR = { ok: 'success', unavailable: 'warning', invalid: 'warning', denied: 'error', threw: 'error' } as const;

function TimingSplit({ turn }: { turn: TurnDetail }) {
  const parts = [
    { label: 'Queue wait', ms: turn.queueWaitMs },
    { label: 'Model', ms: turn.modelMs },
    { label: 'Tools', ms: turn.toolsMs },
    { label: 'Commit', ms: turn.commitMs },
  ];
  return (
    <Stack direction="row" spacing={1} useFlexGap flexWrap="wrap" data-testid="turn-timing">
      {parts.map((p) => (
        <Chip key={p.label} size="small" variant="outlined" label={`${p.label} ${n(p.ms)} ms`} />
      ))}
      <Chip size="small" label={`Total ${n(turn.totalMs)} ms`} />
    </Stack>
  );
}

function ModelCall({ entry }: { entry: ModelTraceEntry }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap" data-testid="trace-model">
      <Chip size="small" color="primary" variant="outlined" label={`${entry.call} call`} />
      <Typography variant="body2" color="text.secondary">
        round {entry.round} · {n(entry.ms)} ms · {n(entry.usage?.inputTokens)} in / {n(entry.usage?.outputTokens)} out
        {entry.usage?.cachedInputTokens ? ` (${n(entry.usage.cachedInputTokens)} cached)` : ''} · {spentByLabel(entry)}
      </Typography>
      {entry.costMicros !== undefined && <Chip size="small" variant="outlined" data-testid="call-cost" label={formatMicros(entry.costMicros)} />}
      {entry.unpriced && <Chip size="small" color="warning" label="no price for this model" />}
      {entry.error && <Chip size="small" color="error" label={`${entry.error.kind}: ${entry.error.message}`} />}
    </Stack>
  );
}

function ToolCall({ entry }: { entry: ToolTraceEntry }) {
  return (
    <Box data-testid="trace-tool" sx={{ borderLeft: 3, borderColor: 'secondary.light', pl: 1.5 }}>
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap" sx={{ mb: 0.5 }}>
        <Typography variant="subtitle2" data-testid="tool-name">
          {entry.tool}
        </Typography>
        <Chip size="small" color={GATE_COLOR[entry.gate] ?? 'default'} label={entry.gate} />
        <Typography variant="body2" color="text.secondary">
          round {entry.round} · {n(entry.ms)} ms
        </Typography>
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Arguments
      </Typography>
      <Box data-testid="tool-arguments">
        <JsonBlock value={entry.arguments} maxHeight={200} />
      </Box>
      <Typography variant="caption" color="text.secondary">
        Result (what the model read)
      </Typography>
      <ToolCallResult text={entry.result} />
    </Box>
  );
}

/**
 * What happened inside one turn (the row's expand panel): usage, the timing split, each model
 * and tool call in order (tool arguments and results), and each step's outcome line.
 */
export function TurnDetails() {
  const record = useRecordContext<{ id: string }>();
  // Its own cache key: the list already cached a lean copy of the turn (no trace) under getOne.
  const { data: turn, isPending, error } = useGetOne<TurnDetail & { id: string }>('turns', { id: record?.id ?? '', meta: { trace: true } }, { enabled: Boolean(record) });
  if (!record) return null;
  if (isPending) return <LinearProgress sx={{ my: 1 }} />;
  if (error || !turn) return <Alert severity="error">Could not load this turn’s details: {error?.message ?? 'no answer'}</Alert>;
  return <TurnTraceView turn={turn} />;
}

/** A turn's usage, timing split, calls and outcomes: transcript turns and playground turns alike. */
export function TurnTraceView({ turn }: { turn: TurnDetail }) {
  const trace = turn.trace ?? [];
  const outcomes = turn.outcomes ?? [];

  return (
    <Stack spacing={1.5} sx={{ py: 1 }} data-testid="turn-details">
      <Typography variant="body2" data-testid="turn-usage">
        {n(turn.llmCalls)} LLM calls · {n(turn.inputTokens)} tokens in · {n(turn.outputTokens)} tokens out
        {turn.cachedInputTokens ? ` · ${n(turn.cachedInputTokens)} cached` : ''}
        {turn.costMicros !== undefined ? ` · cost ${formatMicros(turn.costMicros)}` : ''}
        {turn.unpricedCalls ? ` (${n(turn.unpricedCalls)} unpriced calls)` : ''}
      </Typography>
      <TimingSplit turn={turn} />
      <Typography variant="subtitle2">Calls</Typography>
      {trace.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No model or tool call in this turn.
        </Typography>
      ) : (
        <Stack spacing={1} data-testid="turn-trace">
          {trace.map((entry, i) => (entry.type === 'tool' ? <ToolCall key={entry.id ?? i} entry={entry} /> : <ModelCall key={i} entry={entry} />))}
        </Stack>
      )}
      <Typography variant="subtitle2">Outcomes</Typography>
      {outcomes.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          No step outcome recorded.
        </Typography>
      ) : (
        <TableContainer>
          <Table size="small" data-testid="turn-outcomes">
            <TableHead>
              <TableRow>
                <TableCell>Where</TableCell>
                <TableCell>Kind</TableCell>
                <TableCell>Status</TableCell>
                <TableCell>Code</TableCell>
                <TableCell>Message</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {outcomes.map((o, i) => (
                <TableRow key={i}>
                  <TableCell>{outcomePlace(o)}</TableCell>
                  <TableCell>{o.kind}</TableCell>
                  <TableCell>
                    <Chip size="small" variant="outlined" color={o.status === 'failed' ? 'error' : o.status === 'deferred' ? 'warning' : 'default'} label={o.status} />
                  </TableCell>
                  <TableCell>{o.code ?? '—'}</TableCell>
                  <TableCell>{o.message ?? ''}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Stack>
  );
}
