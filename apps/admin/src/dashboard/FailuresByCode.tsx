import { Alert, Card, CardContent, Chip, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { adminFetch } from '../api/api-fetch';
import type { UsageFilter } from './usage-data';

/** `GET /v1/admin/usage/failures` (docs/admin-api.md, "Failures by code"). */
interface TurnFailureRow {
  id: string;
  status: 'failed' | 'deferred';
  code: string | null;
  turns: number;
  agents: number;
  lastAt: string;
  lastTurnId: string;
}

function readFailures(filter: UsageFilter): Promise<TurnFailureRow[]> {
  const f = { from: filter.from, to: filter.to, ...(filter.agentId && { agentId: filter.agentId }) };
  return adminFetch<TurnFailureRow[]>('/usage/failures', { query: { filter: JSON.stringify(f) } });
}

/** The turns list filtered to this code, agent and range: the examples behind a row. */
function examplesPath(row: TurnFailureRow, filter: UsageFilter): string {
  const f = {
    ...(row.code && { outcomeCode: row.code }),
    ...(filter.agentId && { agentId: filter.agentId }),
    createdAt_gte: `${filter.from}T00:00:00.000Z`,
    createdAt_lte: `${filter.to}T23:59:59.999Z`,
  };
  return `/turns?filter=${encodeURIComponent(JSON.stringify(f))}`;
}

/** Failed and deferred turns by outcome code over the dashboard's range, each with a link to its turns. */
export function FailuresByCode({ filter }: { filter: UsageFilter }) {
  const failures = useQuery({ queryKey: ['usage-failures', filter], queryFn: () => readFailures(filter) });
  return (
    <Card data-testid="failures-by-code">
      <CardContent>
        <Typography variant="h6" gutterBottom>
          Failed and deferred turns by code
        </Typography>
        {failures.error ? <Alert severity="error">Could not load the failures: {failures.error.message}</Alert> : null}
        {failures.isPending ? (
          <Typography color="text.secondary">Loading…</Typography>
        ) : failures.data?.length === 0 ? (
          <Typography color="text.secondary">No failed or deferred turns in this range.</Typography>
        ) : failures.data ? (
          <TableContainer>
            <Table size="small">
              <TableHead>
                <TableRow>
                  <TableCell>Code</TableCell>
                  <TableCell>Outcome</TableCell>
                  <TableCell align="right">Turns</TableCell>
                  <TableCell>Last</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {failures.data.map((row) => (
                  <TableRow key={row.id} data-testid={`failure-${row.id}`}>
                    <TableCell>
                      <code>{row.code ?? 'no code'}</code>
                    </TableCell>
                    <TableCell>
                      <Chip size="small" label={row.status} color={row.status === 'failed' ? 'error' : 'warning'} />
                    </TableCell>
                    <TableCell align="right">{row.turns.toLocaleString()}</TableCell>
                    <TableCell>{new Date(row.lastAt).toLocaleString()}</TableCell>
                    <TableCell>
                      <Link to={examplesPath(row, filter)}>See turns</Link>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        ) : null}
      </CardContent>
    </Card>
  );
}
