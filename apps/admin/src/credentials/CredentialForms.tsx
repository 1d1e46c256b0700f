import { Create, Edit, PasswordInput, required, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { TenantInput } from '../components/TenantInput';

const KINDS = [
  { id: 'openai', name: 'OpenAI' },
  { id: 'gemini', name: 'Google Gemini' },
  { id: 'openai-compatible', name: 'OpenAI-compatible server' },
];

export function CredentialCreate() {
  return (
    <Create redirect="list">
      <SimpleForm>
        <TenantInput />
        <TextInput source="name" validate={required()} />
        <SelectInput source="kind" choices={KINDS} validate={required()} />
        <TextInput source="baseURL" label="Base URL (compatible servers)" parse={(v: string) => v || null} />
        <PasswordInput source="secret" label="API key" validate={required()} helperText="Encrypted at rest; it is never shown again" />
      </SimpleForm>
    </Create>
  );
}

// The secret is write-only: sent only when a new one is typed.
const transform = ({ name, baseURL, secret }: Record<string, unknown>) => ({ name, baseURL: baseURL ?? null, ...(secret ? { secret } : {}) });

export function CredentialEdit() {
  return (
    <Edit transform={transform} mutationMode="pessimistic" redirect="list">
      <SimpleForm>
        <TextInput source="name" validate={required()} />
        <TextInput source="kind" disabled />
        <TextInput source="baseURL" label="Base URL (compatible servers)" parse={(v: string) => v || null} />
        <PasswordInput source="secret" label="Replace the API key" helperText="Leave empty to keep the stored key" />
      </SimpleForm>
    </Edit>
  );
}
