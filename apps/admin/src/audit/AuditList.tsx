import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { Stack, Typography } from '@mui/material';
import { DateField, List, SelectInput, TextField, TextInput, useRecordContext } from 'react-admin';
import { JsonBlock } from '../components/JsonBlock';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';

interface AuditRecord {
  before: unknown;
  after: unknown;
}

function BeforeAfter() {
  const record = useRecordContext<AuditRecord>();
  if (!record) return null;
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
      <div style={{ flex: 1 }}>
        <Typography variant="subtitle2">Before</Typography>
        <JsonBlock value={record.before ?? undefined} />
      </div>
      <div style={{ flex: 1 }}>
        <Typography variant="subtitle2">After</Typography>
        <JsonBlock value={record.after ?? undefined} />
      </div>
    </Stack>
  );
}

const ENTITY_TYPES = ['agent', 'channel', 'api-key', 'provider-credential', 'http-tool', 'user', 'tenant'].map((t) => ({ id: t, name: t }));

const filters = [
  <SelectInput key="entityType" source="entityType" label="Entity" choices={ENTITY_TYPES} alwaysOn />,
  <TextInput key="action" source="action" label="Action (e.g. agent.publish)" alwaysOn />,
];

/** Who changed which config, when; expand a row for before and after. */
export function AuditList() {
  const allTenants = useAllTenants();
  return (
    <List filters={filters} sort={{ field: 'createdAt', order: 'DESC' }} perPage={25}>
      <ResponsiveDatagrid rowClick="expand" expand={<BeforeAfter />} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <DateField source="createdAt" label="When" showTime />
        <TextField source="actor.email" label="Who" emptyText="system" />
        <TextField source="action" />
        <TextField source="entityType" label="Entity" />
        <TextField source="entityId" label="Entity id" />
      </ResponsiveDatagrid>
    </List>
  );
}
