import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { BooleanInput, CreateButton, DateField, FunctionField, List, SearchInput, TextField, TopToolbar, usePermissions, type RaRecord } from 'react-admin';
import { canWrite } from '../api/roles';
import type { AgentRecord } from './agent-config';
import { PublishedChip } from './AgentEdit';
import { AgentHealthField } from './AgentHealth';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton />}</TopToolbar>;
}

const countOf = (key: 'flows' | 'tools') => (r: RaRecord) => (r as AgentRecord).config?.[key]?.length ?? 0;

export function AgentList() {
  const allTenants = useAllTenants();
  const { permissions } = usePermissions();
  return (
    <List actions={<Actions />} filters={[<SearchInput key="q" source="q" placeholder="Name" alwaysOn />, <BooleanInput key="archived" source="archived" label="Archived agents" />]} sort={{ field: 'name', order: 'ASC' }}
      empty={false}>
      <ResponsiveDatagrid rowClick={canWrite(permissions) ? 'edit' : 'show'} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="name" />
        <PublishedChip label="Published" />
        <AgentHealthField label="Health (last hour)" sortable={false} />
        <TextField source="config.provider.model" label="Model" sortable={false} />
        <FunctionField label="Flows" render={countOf('flows')} />
        <FunctionField label="Tools" render={countOf('tools')} />
        <DateField source="updatedAt" label="Updated" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
