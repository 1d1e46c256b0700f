import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { Typography } from '@mui/material';
import { DateField, NumberField, Pagination, ReferenceManyField, TextField, useRecordContext } from 'react-admin';
import { useCanOperate } from '../queues/ops-roles';
import { DeliveryStatusChip } from './DeliveryStatusChip';
import { RedriveDeliveryButton } from './RedriveDeliveryButton';

/** The channel's latest webhook deliveries, for the channel page (operators and up: viewers cannot read deliveries). */
export function ChannelDeliveries() {
  const record = useRecordContext<{ id: string }>();
  const allowed = useCanOperate();
  if (!record || !allowed) return null;
  return (
    <>
      <Typography variant="h6">Delivery log</Typography>
      <ReferenceManyField
        label={false}
        reference="deliveries"
        target="channelId"
        sort={{ field: 'createdAt', order: 'DESC' }}
        perPage={10}
        pagination={<Pagination rowsPerPageOptions={[10]} />}
        empty={<Typography color="text.secondary">No webhook delivery yet.</Typography>}
      >
        <ResponsiveDatagrid bulkActionButtons={false} rowClick={(id) => `/deliveries/${id}/show`} data-testid="channel-deliveries">
          <DateField source="createdAt" label="Created" showTime />
          <DeliveryStatusChip label="Status" source="status" />
        <TextField source="type" label="Event" />
          <NumberField source="attempts" />
          <NumberField source="lastStatusCode" label="Last HTTP status" emptyText="—" />
          <TextField source="lastError" label="Last error" emptyText="—" />
          <RedriveDeliveryButton label="" />
        </ResponsiveDatagrid>
      </ReferenceManyField>
    </>
  );
}
