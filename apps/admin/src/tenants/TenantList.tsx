import { Datagrid, DateField, List, SearchInput, TextField } from 'react-admin';
import { EmptyState } from '../components/EmptyState';

/** Platform admins only: every tenant on the platform. */
export function TenantList() {
  return (
    <List filters={[<SearchInput key="q" source="q" placeholder="Name" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }} empty={<EmptyState title="No tenants yet">Tenants are created through the API (POST /v1/admin/tenants) or the demo seed.</EmptyState>}>
      <Datagrid rowClick={false} bulkActionButtons={false}>
        <TextField source="name" />
        <TextField source="slug" />
        <DateField source="createdAt" label="Created" showTime />
      </Datagrid>
    </List>
  );
}
