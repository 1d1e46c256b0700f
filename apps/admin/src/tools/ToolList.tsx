import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';
import { Chip, Stack } from '@mui/material';
import { CreateButton, List, SearchInput, SelectInput, TextField, TopToolbar, useCreatePath, usePermissions, useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { canWrite } from '../api/roles';

export interface ToolRecord {
  id: string;
  kind: 'code' | 'http';
  toolId: string;
  description: string;
  parameters: unknown;
  readOnly: boolean;
  destructive: boolean;
  usedBy: { id: string; name: string }[];
  url?: string;
  method?: string;
}

export function UsedBy(_: { label?: string }) {
  const record = useRecordContext<ToolRecord>();
  const createPath = useCreatePath();
  if (!record?.usedBy.length) return <span>—</span>;
  return (
    <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
      {record.usedBy.map((a) => (
        <Chip key={a.id} size="small" label={a.name} component={Link} to={createPath({ resource: 'agents', id: a.id, type: 'show' })} clickable onClick={(e) => e.stopPropagation()} />
      ))}
    </Stack>
  );
}

export function KindChip(_: { label?: string }) {
  const record = useRecordContext<ToolRecord>();
  if (!record) return null;
  return <Chip size="small" color={record.kind === 'code' ? 'primary' : 'secondary'} label={record.kind === 'code' ? 'code' : `HTTP ${record.method ?? ''}`} />;
}

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton resource="http-tools" label="New HTTP tool" />}</TopToolbar>;
}

const filters = [
  <SearchInput key="q" source="q" alwaysOn />,
  <SelectInput key="kind" source="kind" choices={[{ id: 'code', name: 'Code tools' }, { id: 'http', name: 'HTTP tools' }]} alwaysOn />,
];

/** Every tool an agent may allow: the worker's code tools and the tenant's HTTP tools, with their users. */
export function ToolList() {
  const allTenants = useAllTenants();
  return (
    <List actions={<Actions />} filters={filters} sort={{ field: 'toolId', order: 'ASC' }}>
      <ResponsiveDatagrid rowClick="show" bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <TextField source="toolId" label="Tool id" />
        <KindChip label="Kind" />
        <TextField source="description" />
        <UsedBy label="Allowed by agents" />
      </ResponsiveDatagrid>
    </List>
  );
}
