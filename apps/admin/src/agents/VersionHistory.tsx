import { Alert, Box, Button, MenuItem, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useGetMany, useNotify, usePermissions, useRefresh } from 'react-admin';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import { canWrite } from '../api/roles';
import { ConfigDiff } from './ConfigDiff';
import { publishedMessage, type PublishAnswer } from './PublishButton';
import { blockedOf, PublishDialog, type BlockedByTests, type PublishRequest } from './PublishDialog';

interface VersionRow {
  id: string;
  version: number;
  publishedById: string | null;
  publishedAt: string;
  note: string | null;
  overrideReason: string | null;
  restoredFrom: number | null;
  testResults: { total: number; passed: number; failed: number } | null;
}

/** "Restore": an earlier version becomes the draft and is published through the same tests. */
function useRestore(agentId: string) {
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const [version, setVersion] = useState<number | null>(null);
  const [blocked, setBlocked] = useState<BlockedByTests | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setVersion(null);
    setBlocked(null);
  };
  const restore = async (req: PublishRequest) => {
    if (version === null) return;
    setBusy(true);
    try {
      const answer = await adminFetch<{ published: PublishAnswer }>(`/agents/${agentId}/versions/${version}/restore`, { method: 'POST', body: { publish: true, ...req } });
      notify(`${publishedMessage(answer.published)} Restored from version ${version}.`, { type: 'success' });
      close();
    } catch (err) {
      const tests = blockedOf(errorBodyOf(err));
      if (tests) setBlocked(tests);
      else {
        notify(`Not restored: ${messageOf(err)}`, { type: 'error' });
        close();
      }
    } finally {
      setBusy(false);
      await queryClient.invalidateQueries({ queryKey: ['agent-versions', agentId] });
      refresh();
    }
  };
  const dialog =
    version === null ? null : (
      <PublishDialog title={`Restore version ${version}`} action="Restore and publish" blocked={blocked} busy={busy} onConfirm={(req) => void restore(req)} onClose={close} />
    );
  return { open: setVersion, dialog };
}

function TestsCell({ v }: { v: VersionRow }) {
  if (!v.testResults || v.testResults.total === 0) return <>—</>;
  return (
    <>
      {v.testResults.passed}/{v.testResults.total} passed
      {v.overrideReason && (
        <Typography variant="caption" color="warning.main" display="block" data-testid="override-reason">
          Published past failing tests: {v.overrideReason}
        </Typography>
      )}
    </>
  );
}

/** Who published which version when, and the diff between any two (or a version and the draft). */
export function VersionHistory({ agentId }: { agentId: string }) {
  const versions = useQuery({
    queryKey: ['agent-versions', agentId],
    queryFn: () => adminFetch<VersionRow[]>(`/agents/${agentId}/versions`, { query: { range: '[0,99]' } }),
  });
  const ids = [...new Set((versions.data ?? []).map((v) => v.publishedById).filter((id): id is string => !!id))];
  const { data: users } = useGetMany<{ id: string; name: string; email: string }>('users', { ids }, { enabled: ids.length > 0 });
  const who = (id: string | null) => {
    const user = users?.find((u) => u.id === id);
    return user ? user.name || user.email : id ? `user ${id.slice(0, 8)}` : '—';
  };
  const [from, setFrom] = useState<string>('');
  const [to, setTo] = useState<string>('draft');
  const [compared, setCompared] = useState<{ from: string; to: string } | null>(null);
  const { permissions } = usePermissions();
  const restore = useRestore(agentId);

  if (versions.isPending) return <Typography color="text.secondary">Loading versions…</Typography>;
  if (versions.error) return <Alert severity="error">Could not load the versions: {versions.error.message}</Alert>;
  const rows = versions.data;
  if (!rows.length) return <Typography color="text.secondary">Not published yet: publish the draft to create version 1.</Typography>;

  const refs = [...rows.map((v) => ({ id: String(v.version), name: `Version ${v.version}` })), { id: 'draft', name: 'Current draft' }];
  return (
    <Stack spacing={2} sx={{ width: '100%' }}>
      <TableContainer>
        <Table size="small" data-testid="versions">
          <TableHead>
            <TableRow>
              <TableCell>Version</TableCell>
              <TableCell>Published by</TableCell>
              <TableCell>Published at</TableCell>
              <TableCell>Note</TableCell>
              <TableCell>Tests</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((v, i) => (
              <TableRow key={v.id} data-testid={`version-${v.version}`}>
                <TableCell>
                  {v.version}
                  {i === 0 ? ' (live)' : ''}
                </TableCell>
                <TableCell>{who(v.publishedById)}</TableCell>
                <TableCell>{new Date(v.publishedAt).toLocaleString()}</TableCell>
                <TableCell>
                  {v.note ?? ''}
                  {v.restoredFrom ? (
                    <Typography variant="caption" color="text.secondary" display="block">
                      restored from version {v.restoredFrom}
                    </Typography>
                  ) : null}
                </TableCell>
                <TableCell>
                  <TestsCell v={v} />
                </TableCell>
                <TableCell>
                  {i > 0 && canWrite(permissions) && (
                    <Button size="small" onClick={() => restore.open(v.version)}>
                      Restore
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="subtitle1">Compare</Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center', flexWrap: 'wrap' }}>
        <TextField select size="small" label="From" value={from || String(rows[rows.length - 1].version)} onChange={(e) => setFrom(e.target.value)} sx={{ minWidth: 'min(160px, 100%)' }}>
          {refs.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} sx={{ minWidth: 'min(160px, 100%)' }}>
          {refs.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <Button variant="outlined" onClick={() => setCompared({ from: from || String(rows[rows.length - 1].version), to })}>
          Show changes
        </Button>
      </Box>
      {compared && <ConfigDiff agentId={agentId} from={compared.from} to={compared.to} />}
      {restore.dialog}
    </Stack>
  );
}
