import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { tenantColumn, useAllTenants } from '../components/TenantColumn';
import {
  BooleanInput,
  Create,
  CreateButton,
  DateField,
  Edit,
  EmailField,
  List,
  PasswordInput,
  required,
  SearchInput,
  SelectInput,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { canWrite } from '../api/roles';
import { TenantInput } from '../components/TenantInput';

const ROLES = [
  { id: 'owner', name: 'Owner' },
  { id: 'admin', name: 'Admin' },
  { id: 'operator', name: 'Operator (sessions, usage; read-only config)' },
  { id: 'viewer', name: 'Viewer (read-only)' },
];

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{canWrite(permissions) && <CreateButton />}</TopToolbar>;
}

export function UserList() {
  const allTenants = useAllTenants();
  const { permissions } = usePermissions();
  return (
    <List actions={<Actions />} filters={[<SearchInput key="q" source="q" placeholder="Email" alwaysOn />]} sort={{ field: 'email', order: 'ASC' }}>
      <ResponsiveDatagrid rowClick={canWrite(permissions) ? 'edit' : false} bulkActionButtons={false}>
        {tenantColumn(allTenants)}
        <EmailField source="email" />
        <TextField source="name" />
        <TextField source="role" />
        <DateField source="disabledAt" label="Disabled" showTime emptyText="—" />
        <DateField source="createdAt" label="Created" showTime />
      </ResponsiveDatagrid>
    </List>
  );
}

export function UserCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TenantInput />
        <TextInput source="email" type="email" validate={required()} />
        <TextInput source="name" />
        <SelectInput source="role" choices={ROLES} validate={required()} />
        <PasswordInput source="password" label="Initial password" validate={required()} />
      </SimpleForm>
    </Create>
  );
}

const transform = ({ name, role, password, disabledAt }: Record<string, unknown>) => ({ name, role, ...(password ? { password } : {}), disabled: Boolean(disabledAt) });

export function UserEdit() {
  return (
    <Edit transform={transform} mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <TextInput source="email" disabled />
        <TextInput source="name" />
        <SelectInput source="role" choices={ROLES} validate={required()} />
        <PasswordInput source="password" label="New password" helperText="Leave empty to keep it" />
        <BooleanInput
          source="disabledAt"
          label="Disabled (cannot log in)"
          format={(v: unknown) => Boolean(v)}
          parse={(on: boolean) => (on ? new Date().toISOString() : null)}
        />
      </SimpleForm>
    </Edit>
  );
}
