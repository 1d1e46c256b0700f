import { Divider, Typography } from '@mui/material';
import { DateField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { JsonBlock } from '../components/JsonBlock';
import type { AgentRecord } from './agent-config';
import { PublishedChip } from './AgentEdit';
import { AgentHealthPanel } from './AgentHealth';
import { VersionHistory } from './VersionHistory';

function DraftConfig() {
  const record = useRecordContext<AgentRecord>();
  return record ? <JsonBlock value={record.config} maxHeight={600} label="Draft configuration" /> : null;
}

function Versions() {
  const record = useRecordContext<AgentRecord>();
  return record ? <VersionHistory agentId={record.id} /> : null;
}

/** Read-only view of an agent, for roles that may not edit config. */
export function AgentShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <PublishedChip label="Published" />
        <AgentHealthPanel />
        <TextField source="config.provider.kind" label="Provider" />
        <TextField source="config.provider.model" label="Model" />
        <DateField source="updatedAt" label="Draft updated" showTime />
        <Divider />
        <Typography variant="h6">Draft config</Typography>
        <DraftConfig />
        <Typography variant="h6">Versions</Typography>
        <Versions />
      </SimpleShowLayout>
    </Show>
  );
}
