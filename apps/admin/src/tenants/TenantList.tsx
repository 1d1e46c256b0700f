import { Datagrid, DateField, List, SearchInput, TextField } from 'react-admin';

/** Platform admins only: every tenant on the platform. */
export function TenantList() {
  return (
    <List filters={[<SearchInput key="q" source="q" placeholder="Name" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }}>
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <TextField source="name" />
        <TextField source="slug" />
        <DateField source="createdAt" label="Created" showTime />
      </Datagrid>
    </List>
  );
}
