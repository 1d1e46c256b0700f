import { DateField, NumberField, ReferenceField, Show, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { DeliveryStatusChip } from './DeliveryStatusChip';
import { RedriveDeliveryButton } from './RedriveDeliveryButton';

function Actions() {
  return (
    <TopToolbar>
      <RedriveDeliveryButton />
    </TopToolbar>
  );
}

/** One delivery: where it goes, how often it was tried, what the receiver answered last. */
export function DeliveryShow() {
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <DeliveryStatusChip label="Status" source="status" />
        <TextField source="type" label="Event" />
        <TextField source="url" label="Webhook URL" />
        <NumberField source="attempts" />
        <NumberField source="lastStatusCode" label="Last HTTP status" emptyText="—" />
        <TextField source="lastError" label="Last error" emptyText="—" />
        <DateField source="nextAttemptAt" label="Next attempt" showTime emptyText="—" />
        <DateField source="deliveredAt" label="Delivered" showTime emptyText="—" />
        <ReferenceField source="channelId" reference="channels" label="Channel" />
        <ReferenceField source="sessionId" reference="sessions" label="Session" link="show" />
        <TextField source="messageId" label="Reply message id" emptyText="— (not a reply)" />
        <DateField source="createdAt" label="Created" showTime />
        <TextField source="id" label="Delivery id (webhook-id)" />
      </SimpleShowLayout>
    </Show>
  );
}
