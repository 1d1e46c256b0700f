import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';
import { DateField, List, ReferenceField, ReferenceInput, AutocompleteInput, SearchInput, SelectInput, TextField } from 'react-admin';

const filters = [
  <SearchInput key="q" source="q" placeholder="Text" alwaysOn />,
  <ReferenceInput key="sessionId" source="sessionId" reference="sessions" alwaysOn>
    <AutocompleteInput label="Session" optionText="externalKey" filterToQuery={(q: string) => ({ q })} />
  </ReferenceInput>,
  <SelectInput
    key="direction"
    source="direction"
    choices={[
      { id: 'inbound', name: 'Inbound' },
      { id: 'outbound', name: 'Outbound' },
    ]}
  />,
  <SelectInput
    key="status"
    source="status"
    choices={['queued', 'answered', 'sent', 'failed'].map((s) => ({ id: s, name: s }))}
  />,
];

export function MessageList() {
  const allTenants = useAllTenants();
  return (
    <List filters={filters} sort={{ field: 'seq', order: 'DESC' }} perPage={25}>
      <ResponsiveDatagrid rowClick={false} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="seq" label="#" />
        <ReferenceField source="sessionId" reference="sessions" label="Session" link="show">
          <TextField source="externalKey" />
        </ReferenceField>
        <TextField source="direction" />
        <TextField source="status" />
        <TextField source="text" sx={{ display: 'block', maxWidth: 480, whiteSpace: 'pre-wrap' }} />
        <DateField source="createdAt" label="At" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
