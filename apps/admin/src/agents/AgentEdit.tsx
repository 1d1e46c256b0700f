import { Chip, Stack } from '@mui/material';
import { Edit, useNotify, useRecordContext } from 'react-admin';
import type { AgentRecord } from './agent-config';
import { AgentForm } from './AgentForm';
import { AgentHealthPanel } from './AgentHealth';

function AgentTitle() {
  const record = useRecordContext<AgentRecord>();
  return <span>Agent {record ? `“${record.name}”` : ''}</span>;
}

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

export function AgentEdit() {
  const notify = useNotify();
  // Stay on the page after saving: the next step is usually Publish.
  return (
    <Edit
      title={<AgentTitle />}
      redirect={false}
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess: () => notify('Draft saved', { type: 'success' }) }}
    >
      <AgentHealthPanel />
      <AgentForm />
    </Edit>
  );
}
