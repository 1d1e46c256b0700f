import { Edit, ShowButton, TopToolbar, useNotify, useRecordContext } from 'react-admin';
import type { AgentRecord } from './agent-config';
import { AgentForm } from './AgentForm';
import { AgentHealthPanel } from './AgentHealth';
import { ArchiveAgentButton } from './ArchiveAgentButton';

// Kept importable from here for the list and show pages; it lives in its own file so AgentForm can use it without a cycle.
export { PublishedChip } from './PublishedChip';

function AgentTitle() {
  const record = useRecordContext<AgentRecord>();
  return <span>Agent {record ? `“${record.name}”` : ''}</span>;
}

function AgentEditActions() {
  return (
    <TopToolbar>
      <ShowButton />
      <ArchiveAgentButton />
    </TopToolbar>
  );
}

export function AgentEdit() {
  const notify = useNotify();
  // Stay on the page after saving: the next step is usually Publish.
  return (
    <Edit
      title={<AgentTitle />}
      actions={<AgentEditActions />}
      redirect={false}
      mutationMode="pessimistic"
      mutationOptions={{ onSuccess: () => notify('Draft saved', { type: 'success' }) }}
    >
      <AgentHealthPanel />
      <AgentForm />
    </Edit>
  );
}
