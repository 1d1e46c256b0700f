import { Chip, Stack } from '@mui/material';
import { useRecordContext } from 'react-admin';

/** A turn's outcome codes as chips; failures (provider-*, *-failed) stand out. */
export function OutcomeCodes(_: { label?: string }) {
  const record = useRecordContext<{ outcomeCodes: string[] }>();
  if (!record?.outcomeCodes.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {record.outcomeCodes.map((code) => (
        <Chip key={code} size="small" label={code} color={/^provider-|failed/.test(code) ? 'error' : 'default'} variant="outlined" />
      ))}
    </Stack>
  );
}
