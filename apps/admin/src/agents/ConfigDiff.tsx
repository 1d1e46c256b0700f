import { Alert, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { adminFetch } from '../api/api-fetch';

interface Change {
  path: string;
  before?: unknown;
  after?: unknown;
}

const show = (v: unknown) => (v === undefined ? '—' : typeof v === 'string' ? v : JSON.stringify(v));

/** The changed values between two versions of an agent's config, by JSON Pointer. */
export function ConfigDiff({ agentId, from, to }: { agentId: string; from: string; to: string }) {
  const { data, error, isPending } = useQuery({
    queryKey: ['agent-diff', agentId, from, to],
    queryFn: () => adminFetch<{ changes: Change[] }>(`/agents/${agentId}/diff`, { query: { from, to } }),
  });
  if (isPending) return <Typography color="text.secondary">Comparing…</Typography>;
  if (error) return <Alert severity="error">Could not compare: {error.message}</Alert>;
  if (!data.changes.length) return <Typography data-testid="diff">No differences.</Typography>;
  return (
    <TableContainer>
      <Table size="small" data-testid="diff">
        <TableHead>
          <TableRow>
            <TableCell>Where</TableCell>
            <TableCell>Before</TableCell>
            <TableCell>After</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.changes.map((c) => (
            <TableRow key={c.path}>
              <TableCell sx={{ fontFamily: 'monospace' }}>{c.path}</TableCell>
              <TableCell sx={{ color: 'error.main', whiteSpace: 'pre-wrap' }}>{show(c.before)}</TableCell>
              <TableCell sx={{ color: 'success.main', whiteSpace: 'pre-wrap' }}>{show(c.after)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
