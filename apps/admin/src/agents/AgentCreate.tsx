import { Create, required, SimpleForm, TextInput } from 'react-admin';
import { emptyDraft } from './agent-form-model';
import { ProviderInputs } from './ProviderInputs';
import { TenantInput } from '../components/TenantInput';

/** Name and provider first; fields, flows and tools are edited on the agent's page. */
export function AgentCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ draft: emptyDraft() }}>
        <TenantInput />
        <TextInput source="name" validate={required()} />
        <ProviderInputs />
      </SimpleForm>
    </Create>
  );
}
