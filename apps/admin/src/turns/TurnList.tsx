import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';
import { List, ReferenceField, ReferenceInput, SelectInput, TextField, TextInput } from 'react-admin';
import { turnColumns } from './TurnColumns';
import { TurnDetails } from './TurnDetails';
import { EmptyState } from '../components/EmptyState';

// The dashboard's "See turns" links set outcomeCode, agentId and the range in the address.
const filters = [
  <TextInput key="outcomeCode" source="outcomeCode" label="Outcome code" alwaysOn />,
  <ReferenceInput key="agentId" source="agentId" reference="agents" alwaysOn>
    <SelectInput optionText="name" label="Agent" />
  </ReferenceInput>,
];

export function TurnList() {
  const allTenants = useAllTenants();
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25} empty={<EmptyState title="No turns yet">A turn is recorded each time an agent answers: its LLM calls, tokens, tool calls and outcomes show up here.</EmptyState>}>
      <ResponsiveDatagrid rowClick="expand" expand={<TurnDetails />} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <ReferenceField source="sessionId" reference="sessions" label="Session" link="show">
          <TextField source="externalKey" />
        </ReferenceField>
        {turnColumns}
      </ResponsiveDatagrid>
    </List>
  );
}
