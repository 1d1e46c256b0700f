import { CreateButton, Datagrid, DateField, FunctionField, List, SearchInput, TextField, TopToolbar, usePermissions, type RaRecord } from 'react-admin';
import { canWrite } from '../api/roles';
import type { AgentRecord } from './agent-config';
import { PublishedChip } from './AgentEdit';
import { AgentHealthField } from './AgentHealth';

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton />}</TopToolbar>;
}

const countOf = (key: 'flows' | 'tools') => (r: RaRecord) => (r as AgentRecord).config?.[key]?.length ?? 0;

export function AgentList() {
  const { permissions } = usePermissions();
  return (
    <List actions={<Actions />} filters={[<SearchInput key="q" source="q" placeholder="Name" alwaysOn />]} sort={{ field: 'name', order: 'ASC' }}
      empty={false}>
      <Datagrid rowClick={canWrite(permissions) ? 'edit' : 'show'} bulkActionButtons={false}>
        <TextField source="name" />
        <PublishedChip label="Published" />
        <AgentHealthField label="Health (last hour)" sortable={false} />
        <TextField source="config.provider.model" label="Model" sortable={false} />
        <FunctionField label="Flows" render={countOf('flows')} />
        <FunctionField label="Tools" render={countOf('tools')} />
        <DateField source="updatedAt" label="Updated" showTime />
      </Datagrid>
    </List>
  );
}
