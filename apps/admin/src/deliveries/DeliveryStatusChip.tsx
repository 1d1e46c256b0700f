import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';

const COLORS = { delivered: 'success', pending: 'info', failed: 'warning', dead: 'error' } as const;

export function DeliveryStatusChip(_: { label?: string; source?: string }) {
  const record = useRecordContext<{ status: keyof typeof COLORS }>();
  if (!record) return null;
  return <Chip size="small" label={record.status} color={COLORS[record.status] ?? 'default'} data-testid="delivery-status" />;
}
