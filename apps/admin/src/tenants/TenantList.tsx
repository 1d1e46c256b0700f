import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { CreateButton, DateField, FunctionField, List, SearchInput, SelectInput, TextField, TopToolbar, type RaRecord } from 'react-admin';
import { EmptyState } from '../components/EmptyState';

const quota = (key: 'monthlyLlmCallQuota' | 'monthlyTokenQuota') => (r: RaRecord) => (r[key] === null || r[key] === undefined ? 'unlimited' : Number(r[key]).toLocaleString());

/** Platform admins only: every tenant on the platform, with its status and monthly quotas; a row opens its edit form. */
export function TenantList() {
  return (
    <List
      actions={<TopToolbar><CreateButton /></TopToolbar>}
      filters={[
        <SearchInput key="q" source="q" placeholder="Name" alwaysOn />,
        <SelectInput key="status" source="status" choices={[{ id: 'active', name: 'Active' }, { id: 'suspended', name: 'Suspended' }]} />,
      ]}
      sort={{ field: 'name', order: 'ASC' }}
      empty={<EmptyState title="No tenants yet" action={<CreateButton />}>Create the first one, or run the demo seed.</EmptyState>}
    >
      <ResponsiveDatagrid rowClick="edit" bulkActionButtons={false}>
        <TextField source="name" />
        <TextField source="slug" />
        <TextField source="status" />
        <FunctionField label="LLM calls / month" render={quota('monthlyLlmCallQuota')} />
        <FunctionField label="Tokens / month" render={quota('monthlyTokenQuota')} />
        <DateField source="createdAt" label="Created" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}
