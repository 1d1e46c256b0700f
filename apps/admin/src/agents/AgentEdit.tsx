import { Chip } from '@mui/material';
import { Edit, useRecordContext } from 'react-admin';
import type { AgentRecord } from './agent-config';
import { AgentForm } from './AgentForm';

function AgentTitle() {
  const record = useRecordContext<AgentRecord>();
  return <span>Agent {record ? `“${record.name}”` : ''}</span>;
}

export function PublishedChip(_: { label?: string }) {
  const record = useRecordContext<AgentRecord>();
  if (!record) return null;
  return record.publishedVersion ? (
    <Chip size="small" color="success" label={`v${record.publishedVersion} live`} />
  ) : (
    <Chip size="small" label="never published" />
  );
}

export function AgentEdit() {
  // Stay on the page after saving: the next step is usually Publish.
  return (
    <Edit title={<AgentTitle />} redirect={false} mutationMode="pessimistic">
      <AgentForm />
    </Edit>
  );
}
