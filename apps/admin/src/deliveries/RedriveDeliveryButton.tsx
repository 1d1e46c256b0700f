import ReplayIcon from '@mui/icons-material/Replay';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { useCanOperate } from '../queues/ops-roles';

interface DeliveryRecord {
  id: string;
  status: string;
}

/** Sends a dead or failed delivery again. Shown to operators and up, on deliveries that gave up or wait for a retry. */
export function RedriveDeliveryButton(_: { label?: string }) {
  const record = useRecordContext<DeliveryRecord>();
  const allowed = useCanOperate();
  const notify = useNotify();
  const refresh = useRefresh();
  const [busy, setBusy] = useState(false);
  if (!record || !allowed || (record.status !== 'dead' && record.status !== 'failed')) return null;
  const redrive = async (event: React.MouseEvent) => {
    event.stopPropagation(); // inside a clickable row
    setBusy(true);
    try {
      await adminFetch(`/deliveries/${record.id}/redrive`, { method: 'POST' });
      notify('Delivery queued again: it is sent with fresh attempts, after earlier replies of its session.', { type: 'info' });
      refresh();
    } catch (err) {
      notify(`Could not redrive: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button size="small" variant="outlined" startIcon={<ReplayIcon />} onClick={redrive} disabled={busy} data-testid="redrive-delivery">
      Redrive
    </Button>
  );
}
