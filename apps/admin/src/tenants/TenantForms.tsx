import { Typography } from '@mui/material';
import { Create, Edit, minValue, NumberInput, regex, required, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { BudgetInput, budgetBody } from '../prices/BudgetInput';

const SLUG = regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, 'Lowercase letters, digits and inner dashes (at most 63).');

const STATUSES = [
  { id: 'active', name: 'Active' },
  { id: 'suspended', name: 'Suspended' },
];

/** Name, slug, status, the monthly quotas and money budget (empty = unlimited), as PUT/POST /v1/admin/tenants take them. */
function TenantInputs() {
  return (
    <>
      <TextInput source="name" validate={required()} />
      <TextInput source="slug" validate={[required(), SLUG]} helperText="Unique; lowercase letters, digits and dashes." />
      <SelectInput
        source="status"
        choices={STATUSES}
        defaultValue="active"
        validate={required()}
        helperText="Suspended: its channels' messages are refused (403 tenant-suspended), its users cannot sign in, queued turns do not run."
      />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Monthly quotas (calendar month, UTC)
      </Typography>
      <NumberInput source="monthlyLlmCallQuota" label="LLM calls per month" min={0} step={1} validate={minValue(0)} helperText="Empty: unlimited. Over it, messages are refused with 429 quota-exceeded." />
      <NumberInput source="monthlyTokenQuota" label="Tokens per month (in + out)" min={0} step={1} validate={minValue(0)} helperText="Empty: unlimited." />
      <BudgetInput
        source="monthlyBudget"
        label="Monthly budget (USD)"
        helperText="Empty: no budget. At 80% the console warns; at 100% new turns get the fallback message (429 quota-exceeded)."
      />
    </>
  );
}

// The API refuses unknown keys on create; on edit it drops read-only ones (id, dates).
const body = (r: Record<string, unknown>) => ({
  name: r.name,
  slug: r.slug,
  status: r.status,
  monthlyLlmCallQuota: r.monthlyLlmCallQuota ?? null,
  monthlyTokenQuota: r.monthlyTokenQuota ?? null,
  monthlyBudget: budgetBody(r.monthlyBudget),
});

export function TenantCreate() {
  return (
    <Create redirect="list" transform={body}>
      <SimpleForm>
        <TenantInputs />
      </SimpleForm>
    </Create>
  );
}

export function TenantEdit() {
  return (
    <Edit mutationMode="pessimistic" transform={body}>
      <SimpleForm>
        <TenantInputs />
      </SimpleForm>
    </Edit>
  );
}
