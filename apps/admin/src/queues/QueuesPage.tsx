import { Card, CardContent, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { DeadLetters } from './DeadLetters';

interface QueuesAnswer {
  scope: 'platform' | 'tenant';
  backlog: Record<string, number>;
  queues?: { name: string; counts: Record<string, number> }[];
}

const BACKLOG_LABELS: [string, string][] = [
  ['messagesQueued', 'Messages waiting for an answer'],
  ['wakesDue', 'Wakes due'],
  ['wakesScheduled', 'Wakes scheduled'],
  ['deliveriesPending', 'Deliveries pending'],
  ['deliveriesFailed', 'Deliveries between retries'],
  ['deliveriesDead', 'Deliveries dead'],
  ['deadLetters', 'Turn dead letters'],
];
const COUNT_KEYS = ['waiting', 'active', 'delayed', 'prioritized', 'failed', 'completed'];

/** Backlog (the tenant's, from its rows), BullMQ's global counts for platform admins, and the turn dead letters. */
export function QueuesPage() {
  const { data, error, refetch } = useQuery({ queryKey: ['ops', 'queues'], queryFn: () => adminFetch<QueuesAnswer>('/queues'), refetchInterval: 10_000 });
  return (
    <Stack spacing={2} sx={{ mt: 2 }}>
      <Title title="Queues" />
      <Card>
        <CardContent>
          <Typography variant="h6">{data?.scope === 'platform' ? 'Backlog (all tenants)' : 'Backlog of your tenant'}</Typography>
          {error && <Typography color="error">Could not read the queues: {messageOf(error)}</Typography>}
          {data && (
            <TableContainer>
              <Table size="small" data-testid="backlog">
                <TableBody>
                  {BACKLOG_LABELS.map(([key, label]) => (
                    <TableRow key={key}>
                      <TableCell>{label}</TableCell>
                      <TableCell align="right" data-testid={`backlog-${key}`}>
                        {data.backlog[key] ?? 0}
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          )}
        </CardContent>
      </Card>
      {data?.queues && (
        <Card>
          <CardContent>
            <Typography variant="h6">Job queues (BullMQ, every tenant)</Typography>
            <TableContainer>
              <Table size="small" data-testid="queue-counts">
                <TableHead>
                  <TableRow>
                    <TableCell>Queue</TableCell>
                    {COUNT_KEYS.map((k) => (
                      <TableCell key={k} align="right">
                        {k}
                      </TableCell>
                    ))}
                  </TableRow>
                </TableHead>
                <TableBody>
                  {data.queues.map((q) => (
                    <TableRow key={q.name}>
                      <TableCell>{q.name}</TableCell>
                      {COUNT_KEYS.map((k) => (
                        <TableCell key={k} align="right">
                          {q.counts[k] ?? 0}
                        </TableCell>
                      ))}
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            </TableContainer>
          </CardContent>
        </Card>
      )}
      <Card>
        <CardContent>
          <Typography variant="h6">Turn dead letters</Typography>
          <DeadLetters onChange={() => void refetch()} />
        </CardContent>
      </Card>
    </Stack>
  );
}
