import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { BooleanField, CreateButton, DateField, List, ReferenceField, SearchInput, TextField, TopToolbar, usePermissions } from 'react-admin';
import { canWrite } from '../api/roles';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton />}</TopToolbar>;
}

export function ChannelList() {
  const allTenants = useAllTenants();
  const { permissions } = usePermissions();
  return (
    <List actions={<Actions />} filters={[<SearchInput key="q" source="q" placeholder="Name" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }}>
      <ResponsiveDatagrid rowClick={canWrite(permissions) ? 'edit' : 'show'} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="name" />
        <ReferenceField source="agentId" reference="agents" label="Agent" />
        <TextField source="webhookUrl" label="Webhook URL" emptyText="—" />
        <BooleanField source="hasWebhookSecret" label="Signed" />
        <DateField source="createdAt" label="Created" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
