import ReplayIcon from '@mui/icons-material/Replay';
import { Button, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useState } from 'react';
import { Link, useGetList, useNotify } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { useCanOperate } from './ops-roles';

interface DeadLetter {
  id: string;
  sessionId: string;
  messageId: string | null;
  wake: string | null;
  failedReason: string;
  attemptsMade: number;
  failedAt: string | null;
  messageStatus: string | null;
}

/** Turn jobs that failed every attempt; a redrive retries one (a message answered meanwhile is not answered twice). */
export function DeadLetters({ onChange }: { onChange: () => void }) {
  const { data, total, isPending, error, refetch } = useGetList<DeadLetter>('dead-letters', {
    pagination: { page: 1, perPage: 50 },
    sort: { field: 'failedAt', order: 'DESC' },
  });
  const allowed = useCanOperate();
  const notify = useNotify();
  const [busy, setBusy] = useState<string | null>(null);

  const redrive = async (id: string) => {
    setBusy(id);
    try {
      await adminFetch(`/dead-letters/${encodeURIComponent(id)}/redrive`, { method: 'POST' });
      notify('Job retried with fresh attempts.', { type: 'info' });
      await refetch();
      onChange();
    } catch (err) {
      notify(`Could not redrive: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  if (isPending) return <Typography color="text.secondary">Loading dead letters…</Typography>;
  if (error) return <Typography color="error">Could not read the dead letters: {messageOf(error)}</Typography>;
  if (!data?.length) return <Typography color="text.secondary">No failed turn jobs.</Typography>;
  return (
    <>
      {total !== undefined && total > data.length && (
        <Typography variant="body2" color="text.secondary">
          Showing the newest {data.length} of {total}.
        </Typography>
      )}
      <TableContainer>
        <Table size="small" data-testid="dead-letters">
          <TableHead>
            <TableRow>
              <TableCell>Failed</TableCell>
              <TableCell>Session</TableCell>
              <TableCell>Job</TableCell>
              <TableCell>Error</TableCell>
              <TableCell>Attempts</TableCell>
              <TableCell>Message now</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {data.map((d) => (
              <TableRow key={d.id}>
                <TableCell>{d.failedAt ? new Date(d.failedAt).toLocaleString() : '—'}</TableCell>
                <TableCell>
                  <Link to={`/sessions/${d.sessionId}/show`}>{d.sessionId.slice(0, 8)}</Link>
                </TableCell>
                <TableCell>{d.wake ? `wake ${d.wake}` : d.id}</TableCell>
                <TableCell>{d.failedReason}</TableCell>
                <TableCell>{d.attemptsMade}</TableCell>
                <TableCell>{d.messageStatus ?? '—'}</TableCell>
                <TableCell>
                  {allowed && (
                    <Button size="small" variant="outlined" startIcon={<ReplayIcon />} disabled={busy === d.id} onClick={() => redrive(d.id)} data-testid="redrive-dead-letter">
                      Redrive
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </>
  );
}
