import { BooleanInput, NumberInput, required, SelectInput, SimpleForm, TextInput } from 'react-admin';
import { JsonInput } from '../components/JsonInput';
import { TenantInput } from '../components/TenantInput';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].map((m) => ({ id: m, name: m }));

/** An HTTP tool's inputs; secret header values are write-only (blank keeps the stored ones). */
export function HttpToolForm({ creating }: { creating?: boolean }) {
  return (
    <SimpleForm defaultValues={creating ? { method: 'POST', timeoutMs: 10000, parameters: { type: 'object', properties: {} } } : undefined}>
      {creating && <TenantInput />}
      <TextInput source="toolId" label="Tool id" validate={required()} disabled={!creating} helperText="What the model calls: a letter or _ then letters, digits, _ or -" />
      <TextInput source="description" multiline helperText="The model reads this to decide when to call the tool" />
      <TextInput source="url" label="URL" validate={required()} />
      <SelectInput source="method" choices={METHODS} validate={required()} />
      <JsonInput source="parameters" label="Parameters (JSON Schema)" helperText='{ "type": "object", "properties": { "city": { "type": "string" } } }' />
      <JsonInput source="headers" label="Headers (JSON object)" helperText="Sent as given and shown back" />
      <JsonInput
        source="secretHeaders"
        label="Secret headers (JSON object, write-only)"
        helperText={creating ? 'Encrypted; never shown again' : 'Leave empty to keep the stored ones; a value here replaces all of them'}
      />
      <NumberInput source="timeoutMs" label="Timeout (ms)" min={100} max={60000} />
      <BooleanInput source="readOnly" label="Read-only (safe to run in parallel)" />
      <BooleanInput source="destructive" label="Destructive (never in parallel)" />
    </SimpleForm>
  );
}
