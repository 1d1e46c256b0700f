import { Chip, Stack } from '@mui/material';
import { useRecordContext } from 'react-admin';
import type { AgentRecord } from './agent-config';

/** The live version, and whether the draft has changes not yet published. */
export function PublishedChip(_: { label?: string }) {
  const record = useRecordContext<AgentRecord>();
  if (!record) return null;
  if (!record.publishedVersion) return <Chip size="small" label="never published" />;
  return (
    <Stack direction="row" spacing={0.5}>
      <Chip size="small" color="success" label={`v${record.publishedVersion} live`} />
      {record.unpublishedChanges && <Chip size="small" color="warning" variant="outlined" label="unpublished changes" data-testid="unpublished-changes" />}
    </Stack>
  );
}
