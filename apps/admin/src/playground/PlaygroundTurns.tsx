import { Chip, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useGetList } from 'react-admin';

interface TurnRecord {
  id: string;
  llmCalls: number;
  inputTokens: number;
  outputTokens: number;
  totalMs: number;
  outcomeCodes: string[];
  agentVersion: number | null;
  createdAt: string;
}

/** The turns of the playground session: LLM calls, tokens, latency and outcome codes. */
export function PlaygroundTurns({ sessionId, refreshKey }: { sessionId: string; refreshKey: number }) {
  const { data, isPending } = useGetList<TurnRecord>(
    'turns',
    { filter: { sessionId }, sort: { field: 'createdAt', order: 'ASC' }, pagination: { page: 1, perPage: 100 }, meta: { refreshKey } },
  );
  if (isPending) return <Typography color="text.secondary">Loading turns…</Typography>;
  if (!data?.length) return <Typography color="text.secondary">No turn recorded yet.</Typography>;
  return (
    <Table size="small" data-testid="playground-turns">
      <TableHead>
        <TableRow>
          <TableCell>Turn</TableCell>
          <TableCell>Version</TableCell>
          <TableCell>LLM calls</TableCell>
          <TableCell>Tokens in / out</TableCell>
          <TableCell>Latency (ms)</TableCell>
          <TableCell>Outcomes</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {data.map((t, i) => (
          <TableRow key={t.id}>
            <TableCell>{i + 1}</TableCell>
            <TableCell>{t.agentVersion ?? '—'}</TableCell>
            <TableCell data-testid="turn-llm-calls">{t.llmCalls}</TableCell>
            <TableCell>
              {t.inputTokens} / {t.outputTokens}
            </TableCell>
            <TableCell>{t.totalMs}</TableCell>
            <TableCell>
              <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
                {t.outcomeCodes.map((c) => (
                  <Chip key={c} size="small" variant="outlined" label={c} color={/^provider-|failed/.test(c) ? 'error' : 'default'} />
                ))}
              </Stack>
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
