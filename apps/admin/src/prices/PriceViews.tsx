import { ResponsiveDatagrid } from '../components/ResponsiveDatagrid';
import { Alert } from '@mui/material';
import {
  Create,
  CreateButton,
  DateField,
  DateTimeInput,
  Edit,
  FunctionField,
  List,
  required,
  SimpleForm,
  TextField,
  TextInput,
  TopToolbar,
  usePermissions,
} from 'react-admin';
import { TenantInput } from '../components/TenantInput';

// Prices per million tokens (docs/cost.md): every console user reads them, platform admins set
// them. Amounts are decimal strings ("0.40"), kept exact as micros by the API.

const amount = (v: string) => (/^\d{1,12}(\.\d{1,6})?$/.test(String(v ?? '').trim()) ? undefined : 'An amount like 0.40 (at most 6 decimals)');

function Actions() {
  const { permissions } = usePermissions();
  return <TopToolbar>{permissions === 'platform_admin' && <CreateButton />}</TopToolbar>;
}

function PriceColumns({ tenant }: { tenant?: boolean }) {
  const { permissions } = usePermissions();
  return (
    <ResponsiveDatagrid rowClick={permissions === 'platform_admin' ? 'edit' : false} bulkActionButtons={false} data-testid="price-list">
      {tenant && <TextField source="tenantId" label="Tenant" />}
      <TextField source="provider" />
      <TextField source="model" />
      <FunctionField label="Input / M" render={(r: { input: string; currency: string }) => `${r.input} ${r.currency}`} />
      <FunctionField label="Cached input / M" render={(r: { cachedInput: string; currency: string }) => `${r.cachedInput} ${r.currency}`} />
      <FunctionField label="Output / M" render={(r: { output: string; currency: string }) => `${r.output} ${r.currency}`} />
      <DateField source="effectiveFrom" label="From" />
      <TextField source="source" emptyText="—" />
    </ResponsiveDatagrid>
  );
}

export function ModelPriceList() {
  return (
    <List actions={<Actions />} sort={{ field: 'provider', order: 'ASC' }} title="Model prices">
      <Alert severity="info" sx={{ m: 1 }}>
        List prices per million tokens. A model with no price costs nothing and its calls are counted as unpriced. A new price is a new row with a later date: turns already priced keep theirs.
      </Alert>
      <PriceColumns />
    </List>
  );
}

export function TenantModelPriceList() {
  return (
    <List actions={<Actions />} sort={{ field: 'provider', order: 'ASC' }} title="Negotiated prices">
      <PriceColumns tenant />
    </List>
  );
}

function PriceFields() {
  return (
    <>
      <TextInput source="provider" validate={required()} helperText="openai, gemini, or the name an agent's provider reports" />
      <TextInput source="model" validate={required()} />
      <TextInput source="input" label="Input per million tokens (USD)" validate={[required(), amount]} />
      <TextInput source="cachedInput" label="Cached input per million tokens (USD)" validate={[required(), amount]} />
      <TextInput source="output" label="Output per million tokens (USD)" validate={[required(), amount]} />
      <DateTimeInput source="effectiveFrom" label="In force from" parse={(v: string) => (v ? new Date(v).toISOString() : undefined)} />
      <TextInput source="source" label="Source (pricing page, contract)" parse={(v: string) => v || null} />
    </>
  );
}

// Only what a price update takes: react-admin sends the whole record back.
const transform = ({ provider, model, input, cachedInput, output, effectiveFrom, source }: Record<string, unknown>) => ({ provider, model, input, cachedInput, output, effectiveFrom, source });

export function ModelPriceCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <PriceFields />
      </SimpleForm>
    </Create>
  );
}

export function ModelPriceEdit() {
  return (
    <Edit transform={transform} mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <PriceFields />
      </SimpleForm>
    </Edit>
  );
}

export function TenantModelPriceCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TenantInput />
        <PriceFields />
      </SimpleForm>
    </Create>
  );
}

export function TenantModelPriceEdit() {
  return (
    <Edit transform={transform} mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <PriceFields />
      </SimpleForm>
    </Edit>
  );
}
