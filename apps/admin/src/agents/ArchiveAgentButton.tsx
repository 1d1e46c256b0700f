import ArchiveIcon from '@mui/icons-material/Archive';
import UnarchiveIcon from '@mui/icons-material/Unarchive';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, List, ListItemButton, ListItemText } from '@mui/material';
import { useState } from 'react';
import { useNotify, usePermissions, useRecordContext, useRedirect, useRefresh } from 'react-admin';
import { Link } from 'react-router-dom';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import { canWrite } from '../api/roles';
import type { AgentRecord } from './agent-config';

interface UsingChannel {
  id: string;
  name: string;
  kind: string;
}

/**
 * Archives the agent (or restores an archived one). The API refuses while channels use it and
 * names them: they are listed here with links, to point them elsewhere first.
 */
export function ArchiveAgentButton() {
  const record = useRecordContext<AgentRecord & { archivedAt?: string | null }>();
  const { permissions } = usePermissions();
  const notify = useNotify();
  const redirect = useRedirect();
  const refresh = useRefresh();
  const [blockers, setBlockers] = useState<UsingChannel[] | null>(null);
  if (!record || !canWrite(permissions)) return null;
  const archived = !!record.archivedAt;

  const run = async () => {
    if (!archived && !window.confirm(`Archive “${record.name}”? It disappears from lists and stops answering; you can restore it later.`)) return;
    try {
      await adminFetch(`/agents/${record.id}/${archived ? 'unarchive' : 'archive'}`, { method: 'POST' });
      notify(archived ? 'Agent restored' : 'Agent archived', { type: 'success' });
      if (archived) refresh();
      else redirect('list', 'agents');
    } catch (err) {
      const body = errorBodyOf(err);
      const channels = (body?.details as { channels?: UsingChannel[] } | undefined)?.channels;
      if (body?.code === 'agent-in-use' && channels) setBlockers(channels);
      else notify(`Could not ${archived ? 'restore' : 'archive'} the agent: ${messageOf(err)}`, { type: 'error' });
    }
  };

  return (
    <>
      <Button size="small" color={archived ? 'primary' : 'warning'} startIcon={archived ? <UnarchiveIcon /> : <ArchiveIcon />} onClick={run}>
        {archived ? 'Restore' : 'Archive'}
      </Button>
      <Dialog open={blockers !== null} onClose={() => setBlockers(null)} aria-labelledby="archive-blocked-title">
        <DialogTitle id="archive-blocked-title">Channels still use this agent</DialogTitle>
        <DialogContent>
          <Alert severity="warning" sx={{ mb: 1 }}>
            Point these channels at another agent, or delete them, then archive.
          </Alert>
          <List dense data-testid="archive-blockers">
            {(blockers ?? []).map((c) => (
              <ListItemButton key={c.id} component={Link} to={`/channels/${c.id}`}>
                <ListItemText primary={c.name} secondary={c.kind} />
              </ListItemButton>
            ))}
          </List>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setBlockers(null)}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
