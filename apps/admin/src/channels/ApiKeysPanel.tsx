import AddIcon from '@mui/icons-material/Add';
import { Alert, Button, Chip, Dialog, DialogActions, DialogContent, DialogTitle, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useGetList, useNotify, usePermissions } from 'react-admin';
import { messageOf } from '../api/api-fetch';
import { canWrite } from '../api/roles';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';
import { ApiKeySnippets } from './ApiKeySnippets';

interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  createdAt: string;
}

const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString() : '—');

/** A channel's API keys: prefix only; a new key's plaintext is shown once; revoke keeps the row. */
export function ApiKeysPanel({ channelId }: { channelId: string }) {
  const { permissions } = usePermissions();
  const writer = canWrite(permissions);
  const dataProvider = useDataProvider();
  const notify = useNotify();
  const { data, isPending, error, refetch } = useGetList<ApiKeyRecord>('api-keys', {
    filter: { channelId },
    sort: { field: 'createdAt', order: 'DESC' },
    pagination: { page: 1, perPage: 100 },
  });
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const [plaintext, setPlaintext] = useState<string | null>(null);

  const create = async () => {
    setNaming(false);
    try {
      const { data: created } = await dataProvider.create('api-keys', { data: { channelId, name } });
      setPlaintext((created as unknown as { key: string }).key);
      setName('');
      await refetch();
    } catch (err) {
      notify(`Could not create the key: ${messageOf(err)}`, { type: 'error' });
    }
  };
  const revoke = async (key: ApiKeyRecord) => {
    if (!window.confirm(`Revoke the key ${key.prefix}…? Channels using it stop working at once.`)) return;
    try {
      await dataProvider.delete('api-keys', { id: key.id, previousData: key });
      notify(`Key ${key.prefix}… revoked.`, { type: 'info' });
      await refetch();
    } catch (err) {
      notify(`Could not revoke the key: ${messageOf(err)}`, { type: 'error' });
    }
  };

  return (
    <Stack spacing={1} sx={{ width: '100%' }} data-testid="api-keys">
      <Stack direction="row" alignItems="center" spacing={2} useFlexGap flexWrap="wrap">
        <Typography variant="h6" sx={{ flex: 1 }}>
          API keys
        </Typography>
        {writer && (
          <Button startIcon={<AddIcon />} variant="outlined" onClick={() => setNaming(true)}>
            Create API key
          </Button>
        )}
      </Stack>
      {isPending && <Typography color="text.secondary">Loading keys…</Typography>}
      {error && <Alert severity="error">Could not load the keys: {error.message}</Alert>}
      {data && data.length === 0 && <Typography color="text.secondary">No keys yet: create one for the channel to post messages.</Typography>}
      {data && data.length > 0 && (
        <TableContainer>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>Key</TableCell>
                <TableCell>Name</TableCell>
                <TableCell>Created</TableCell>
                <TableCell>Last used</TableCell>
                <TableCell>Status</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {data.map((k) => (
                <TableRow key={k.id}>
                  <TableCell sx={{ fontFamily: 'monospace' }}>{k.prefix}…</TableCell>
                  <TableCell>{k.name || '—'}</TableCell>
                  <TableCell>{when(k.createdAt)}</TableCell>
                  <TableCell>{when(k.lastUsedAt)}</TableCell>
                  <TableCell>{k.revokedAt ? <Chip size="small" label={`revoked ${when(k.revokedAt)}`} /> : <Chip size="small" color="success" label="active" />}</TableCell>
                  <TableCell>
                    {writer && !k.revokedAt && (
                      <Button size="small" color="error" onClick={() => revoke(k)}>
                        Revoke
                      </Button>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </TableContainer>
      )}
      <Dialog open={naming} onClose={() => setNaming(false)}>
        <DialogTitle>New API key</DialogTitle>
        <DialogContent>
          <TextField autoFocus label="Key name (optional)" value={name} onChange={(e) => setName(e.target.value)} fullWidth sx={{ mt: 1 }} />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNaming(false)}>Cancel</Button>
          <Button variant="contained" onClick={create}>
            Create
          </Button>
        </DialogActions>
      </Dialog>
      <OneTimeSecretDialog
        title="Your new API key"
        secret={plaintext}
        explanation="Send it as “Authorization: Bearer <key>” to POST /v1/messages."
        onClose={() => setPlaintext(null)}
      >
        {plaintext ? <ApiKeySnippets apiKey={plaintext} /> : null}
      </OneTimeSecretDialog>
    </Stack>
  );
}
