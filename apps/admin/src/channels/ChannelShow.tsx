import { BooleanField, DateField, ReferenceField, Show, SimpleShowLayout, TextField, useRecordContext } from 'react-admin';
import { ChannelDeliveries } from '../deliveries/ChannelDeliveries';
import { ApiKeysPanel } from './ApiKeysPanel';
import { WidgetSnippet } from './widget/WidgetSnippet';

function Keys() {
  const record = useRecordContext<{ id: string }>();
  return record ? <ApiKeysPanel channelId={record.id} /> : null;
}

/** Read-only channel view for roles that may not change config. */
export function ChannelShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="kind" />
        <WidgetSnippet />
        <ReferenceField source="agentId" reference="agents" label="Agent" />
        <TextField source="webhookUrl" label="Webhook URL" emptyText="—" />
        <BooleanField source="hasWebhookSecret" label="Signing secret set" />
        <DateField source="webhookSecretPreviousExpiresAt" label="Previous secret valid until" showTime emptyText="—" />
        <DateField source="createdAt" showTime />
        <Keys />
        <ChannelDeliveries />
      </SimpleShowLayout>
    </Show>
  );
}
