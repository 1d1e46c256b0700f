import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { CreateButton, DateField, FunctionField, List, TextField, TopToolbar, usePermissions } from 'react-admin';
import { canWrite } from '../api/roles';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton />}</TopToolbar>;
}

/** Stored model provider keys: name, kind and the last 4 characters; never the secret. */
export function CredentialList() {
  const allTenants = useAllTenants();
  const { permissions } = usePermissions();
  return (
    <List actions={<Actions />} sort={{ field: 'name', order: 'ASC' }}>
      <ResponsiveDatagrid rowClick={canWrite(permissions) ? 'edit' : false} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="name" />
        <TextField source="kind" />
        <TextField source="baseURL" label="Base URL" emptyText="—" />
        <FunctionField label="Key" render={(r: { secretLast4?: string | null }) => (r.secretLast4 ? `…${r.secretLast4}` : '—')} />
        <DateField source="updatedAt" label="Updated" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
