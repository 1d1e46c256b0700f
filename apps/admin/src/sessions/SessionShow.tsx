import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { Divider, Typography } from '@mui/material';
import { DateField, NumberField, Pagination, ReferenceField, ReferenceManyField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { turnColumns } from '../turns/TurnColumns';
import { TurnDetails } from '../turns/TurnDetails';
import { HandBackButton } from '../queues/HandBackButton';
import { SaveSessionAsTest } from './SaveSessionAsTest';
import { OpenConversationButton } from '../inbox/OpenConversationButton';
import { SessionConversation } from '../inbox/SessionConversation';
import { SessionStatusChip } from './SessionStatusChip';

function SessionTitle() {
  const record = useRecordContext<{ externalKey: string }>();
  return <span>Session {record ? `“${record.externalKey}”` : ''}</span>;
}

export function SessionShow() {
  return (
    <Show title={<SessionTitle />}>
      <SimpleShowLayout>
        <TextField source="externalKey" label="Session key" />
        <SessionStatusChip label="Status" source="status" />
        <HandBackButton />
        <OpenConversationButton />
        <ReferenceField source="agentId" reference="agents" label="Agent" />
        <ReferenceField source="channelId" reference="channels" label="Channel" />
        <DateField source="createdAt" label="Created" showTime />
        <DateField source="lastMessageAt" label="Last message" showTime emptyText="—" />
        <NumberField source="version" label="State version" />
        <TextField source="id" label="Session id" />
        <Divider />
        <Typography variant="h6">Transcript</Typography>
        <SaveSessionAsTest />
        <SessionConversation />
        <Divider />
        <Typography variant="h6">Turns</Typography>
        <ReferenceManyField
          label={false}
          reference="turns"
          target="sessionId"
          sort={{ field: 'createdAt', order: 'ASC' }}
          perPage={50}
          pagination={<Pagination rowsPerPageOptions={[50]} />}
          empty={<Typography color="text.secondary">No turn has run for this session yet.</Typography>}
        >
          <ResponsiveDatagrid bulkActionButtons={false} rowClick="expand" expand={<TurnDetails />} data-testid="turns">
            {turnColumns}
          </ResponsiveDatagrid>
        </ReferenceManyField>
      </SimpleShowLayout>
    </Show>
  );
}
