import { Datagrid, DateField, List, SearchInput, SelectInput, TextField } from 'react-admin';
import { SessionStatusChip } from './SessionStatusChip';

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
];

export function SessionList() {
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25}>
      <Datagrid rowClick="show" bulkActionButtons={false}>
        <TextField source="externalKey" label="Session key" />
        <SessionStatusChip label="Status" source="status" />
        <DateField source="lastMessageAt" label="Last message" showTime emptyText="—" />
        <DateField source="createdAt" label="Created" showTime />
      </Datagrid>
    </List>
  );
}
