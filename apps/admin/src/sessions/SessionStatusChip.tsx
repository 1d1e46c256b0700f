import { Chip } from '@mui/material';
import { useRecordContext } from 'react-admin';

const COLORS = { active: 'success', handed_off: 'warning' } as const;

export function SessionStatusChip(_: { label?: string; source?: string }) {
  const record = useRecordContext<{ status: keyof typeof COLORS }>();
  if (!record) return null;
  return <Chip size="small" label={record.status.replace('_', ' ')} color={COLORS[record.status] ?? 'default'} />;
}
