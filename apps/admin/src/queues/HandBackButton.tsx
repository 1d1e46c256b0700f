import UndoIcon from '@mui/icons-material/Undo';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { useCanOperate } from './ops-roles';

/**
 * Gives a handed-off session back to the bot. Messages the customer sent during the hand-off
 * stay unanswered by the bot (a person had them); it answers from the next message on.
 */
export function HandBackButton() {
  const record = useRecordContext<{ id: string; status: string }>();
  const allowed = useCanOperate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !allowed || record.status !== 'handed_off') return null;
  const handBack = async () => {
    if (!window.confirm('Hand this session back to the bot? It answers from the next customer message.')) return;
    setBusy(true);
    try {
      await adminFetch(`/sessions/${record.id}/hand-back`, { method: 'POST' });
      notify('Session handed back: the bot answers the next message.', { type: 'info' });
      refresh();
    } catch (err) {
      notify(`Could not hand back: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="outlined" startIcon={<UndoIcon />} onClick={handBack} disabled={busy} data-testid="hand-back">
      Hand back to bot
    </Button>
  );
}
