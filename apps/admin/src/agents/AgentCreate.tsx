import { Create, required, SimpleForm, TextInput } from 'react-admin';
import { emptyDraft } from './agent-form-model';
import { ProviderInputs } from './ProviderInputs';

/** Name and provider first; fields, flows and tools are edited on the agent's page. */
export function AgentCreate() {
  return (
    <Create redirect="edit">
      <SimpleForm defaultValues={{ draft: emptyDraft() }}>
        <TextInput source="name" validate={required()} />
        <ProviderInputs />
      </SimpleForm>
    </Create>
  );
}
