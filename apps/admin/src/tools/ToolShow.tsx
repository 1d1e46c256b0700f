import EditIcon from '@mui/icons-material/Edit';
import { Button } from '@mui/material';
import { BooleanField, Labeled, Show, SimpleShowLayout, TextField, TopToolbar, useCreatePath, usePermissions, useRecordContext } from 'react-admin';
import { Link } from 'react-router-dom';
import { canWrite } from '../api/roles';
import { JsonBlock } from '../components/JsonBlock';
import { KindChip, UsedBy, type ToolRecord } from './ToolList';

function Parameters() {
  const record = useRecordContext<ToolRecord>();
  return (
    <Labeled label="Parameters (JSON Schema)">
      <JsonBlock value={record?.parameters} />
    </Labeled>
  );
}

function Actions() {
  const record = useRecordContext<ToolRecord>();
  const { permissions } = usePermissions();
  const createPath = useCreatePath();
  if (!record || record.kind !== 'http' || !canWrite(permissions)) return <TopToolbar />;
  return (
    <TopToolbar>
      <Button component={Link} to={createPath({ resource: 'http-tools', id: record.id, type: 'edit' })} startIcon={<EditIcon />}>
        Edit HTTP tool
      </Button>
    </TopToolbar>
  );
}

/** A tool, read-only: code tools are defined by the worker; HTTP tools are edited on their own page. */
export function ToolShow() {
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <TextField source="toolId" label="Tool id" />
        <KindChip label="Kind" />
        <TextField source="description" />
        <TextField source="url" label="URL" emptyText="—" />
        <BooleanField source="readOnly" label="Read-only" />
        <BooleanField source="destructive" />
        <Parameters />
        <UsedBy label="Allowed by agents" />
      </SimpleShowLayout>
    </Show>
  );
}
