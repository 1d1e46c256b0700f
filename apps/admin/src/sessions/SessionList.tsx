import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';
import { DateField, DateInput, List, ReferenceField, ReferenceInput, SearchInput, SelectInput, TextField } from 'react-admin';
import { LastTurnFlag } from './LastTurnFlag';
import { SessionStatusChip } from './SessionStatusChip';
import { EmptyState } from '../components/EmptyState';

const filters = [
  <SearchInput key="q" source="q" placeholder="Session key" alwaysOn />,
  <SelectInput
    key="status"
    source="status"
    choices={[
      { id: 'active', name: 'Active' },
      { id: 'handed_off', name: 'Handed off' },
    ]}
    alwaysOn
  />,
  <ReferenceInput key="agentId" source="agentId" reference="agents" alwaysOn>
    <SelectInput label="Agent" optionText="name" />
  </ReferenceInput>,
  <ReferenceInput key="channelId" source="channelId" reference="channels">
    <SelectInput label="Channel" optionText="name" />
  </ReferenceInput>,
  <DateInput key="createdAt_gte" source="createdAt_gte" label="Created after" />,
  <DateInput key="createdAt_lte" source="createdAt_lte" label="Created before" />,
];

export function SessionList() {
  const allTenants = useAllTenants();
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} empty={<EmptyState title="No sessions yet">A session starts with the first message a customer sends on a channel, or in the Playground.</EmptyState>}>
      <ResponsiveDatagrid rowClick="show" bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="externalKey" label="Session key" />
        <SessionStatusChip label="Status" source="status" />
        <LastTurnFlag label="Last turn" />
        <ReferenceField source="agentId" reference="agents" label="Agent" link={false} />
        <ReferenceField source="channelId" reference="channels" label="Channel" link={false} />
        <DateField source="lastMessageAt" label="Last message" showTime emptyText="—" />
        <DateField source="createdAt" label="Created" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
