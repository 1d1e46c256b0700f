import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { DateField, List, NumberField, ReferenceField, ReferenceInput, SelectInput, TextField, TextInput } from 'react-admin';
import { DeliveryStatusChip } from './DeliveryStatusChip';
import { RedriveDeliveryButton } from './RedriveDeliveryButton';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';

export const DELIVERY_STATUS_CHOICES = [
  { id: 'dead', name: 'Dead' },
  { id: 'failed', name: 'Failed (will retry)' },
  { id: 'pending', name: 'Pending' },
  { id: 'delivered', name: 'Delivered' },
];

const filters = [
  <SelectInput key="status" source="status" choices={DELIVERY_STATUS_CHOICES} alwaysOn />,
  <ReferenceInput key="channelId" source="channelId" reference="channels" alwaysOn>
    <SelectInput label="Channel" optionText="name" />
  </ReferenceInput>,
  <TextInput key="sessionId" source="sessionId" label="Session id" />,
  <TextInput key="messageId" source="messageId" label="Message id" />,
];

/** Outbound webhook deliveries (replies and other events), newest first; dead ones can be sent again. */
export function DeliveryList() {
  const allTenants = useAllTenants();
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25}>
      <ResponsiveDatagrid rowClick="show" bulkActionButtons={false} data-testid="deliveries">
        {tenantColumn(allTenants)}
        <DateField source="createdAt" label="Created" showTime />
        <DeliveryStatusChip label="Status" source="status" />
        <TextField source="type" label="Event" />
        <ReferenceField source="channelId" reference="channels" label="Channel" link={false} />
        <ReferenceField source="sessionId" reference="sessions" label="Session" link="show" />
        <NumberField source="attempts" />
        <NumberField source="lastStatusCode" label="Last HTTP status" emptyText="—" />
        <TextField source="lastError" label="Last error" emptyText="—" />
        <RedriveDeliveryButton label="" />
      </ResponsiveDatagrid>
    </List>
  );
}
