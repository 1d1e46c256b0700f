import { useState } from 'react';
import { Create, required, SimpleForm, TextInput } from 'react-admin';
import { draftFromConfig, emptyDraft } from './agent-form-model';
import { AgentTemplatePicker, BLANK_TEMPLATE, type AgentTemplate } from './AgentTemplatePicker';
import { ProviderInputs } from './ProviderInputs';
import { TenantInput } from '../components/TenantInput';

/**
 * Name and provider first, from a blank draft or a template (its whole config rides along in
 * the draft); fields, flows and tools are edited on the agent's page.
 */
export function AgentCreate() {
  const [template, setTemplate] = useState<AgentTemplate | null>(null);
  const picked = template?.id ?? BLANK_TEMPLATE;
  return (
    <Create redirect="edit">
      <AgentTemplatePicker picked={picked} onPick={setTemplate} />
      {/* Keyed by the template: picking one starts the form again from its values. */}
      <SimpleForm key={picked} defaultValues={{ name: template?.name ?? '', draft: template ? draftFromConfig(template.config) : emptyDraft() }}>
        <TenantInput />
        <TextInput source="name" validate={required()} />
        <ProviderInputs />
      </SimpleForm>
    </Create>
  );
}
