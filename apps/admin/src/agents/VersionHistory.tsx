import { Alert, Box, Button, MenuItem, Stack, Table, TableBody, TableCell, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useGetMany } from 'react-admin';
import { adminFetch } from '../api/api-fetch';
import { ConfigDiff } from './ConfigDiff';

interface VersionRow {
  id: string;
  version: number;
  publishedById: string | null;
  publishedAt: string;
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

  if (versions.isPending) return <Typography color="text.secondary">Loading versions…</Typography>;
  if (versions.error) return <Alert severity="error">Could not load the versions: {versions.error.message}</Alert>;
  const rows = versions.data;
  if (!rows.length) return <Typography color="text.secondary">Not published yet: publish the draft to create version 1.</Typography>;

  const refs = [...rows.map((v) => ({ id: String(v.version), name: `Version ${v.version}` })), { id: 'draft', name: 'Current draft' }];
  return (
    <Stack spacing={2} sx={{ width: '100%' }}>
      <Table size="small" data-testid="versions">
        <TableHead>
          <TableRow>
            <TableCell>Version</TableCell>
            <TableCell>Published by</TableCell>
            <TableCell>Published at</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((v) => (
            <TableRow key={v.id}>
              <TableCell>{v.version}</TableCell>
              <TableCell>{who(v.publishedById)}</TableCell>
              <TableCell>{new Date(v.publishedAt).toLocaleString()}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Typography variant="subtitle1">Compare</Typography>
      <Box sx={{ display: 'flex', gap: 2, alignItems: 'center' }}>
        <TextField select size="small" label="From" value={from || String(rows[rows.length - 1].version)} onChange={(e) => setFrom(e.target.value)} sx={{ minWidth: 160 }}>
          {refs.map((r) => (
            <MenuItem key={r.id} value={r.id}>
              {r.name}
            </MenuItem>
          ))}
        </TextField>
        <TextField select size="small" label="To" value={to} onChange={(e) => setTo(e.target.value)} sx={{ minWidth: 160 }}>
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
    </Stack>
  );
}
