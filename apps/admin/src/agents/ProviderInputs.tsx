import { Stack } from '@mui/material';
import { ReferenceInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { ProviderKind } from './agent-config';
import { PublishErrorAt } from './publish-error';

const KINDS: { id: ProviderKind; name: string }[] = [
  { id: 'openai', name: 'OpenAI' },
  { id: 'gemini', name: 'Google Gemini' },
  { id: 'openai-compatible', name: 'OpenAI-compatible server' },
  { id: 'scripted', name: 'Scripted (offline, deterministic)' },
];

const isJson = (value: unknown) => {
  if (typeof value !== 'string' || !value.trim()) return undefined;
  try {
    JSON.parse(value);
    return undefined;
  } catch (err) {
    return `Not valid JSON: ${(err as Error).message}`;
  }
};

/** Provider kind and model, the tenant credential to call it with, or the scripted rules. */
export function ProviderInputs() {
  const kind = useWatch({ name: 'draft.provider.kind' }) as ProviderKind | undefined;
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['provider']} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <SelectInput source="draft.provider.kind" label="Provider" choices={KINDS} validate={required()} sx={{ minWidth: 260 }} />
        <TextInput source="draft.provider.model" label="Model" validate={required()} helperText="e.g. gpt-4o-mini, gemini-2.5-flash" />
      </Stack>
      {kind === 'openai-compatible' && <TextInput source="draft.provider.baseURL" label="Base URL" helperText="The server's OpenAI-compatible /v1 URL" />}
      {kind && kind !== 'scripted' && (
        <ReferenceInput source="draft.provider.credentialId" reference="provider-credentials" filter={{ kind }}>
          <SelectInput
            label="Credential"
            optionText={(c: { name: string; secretLast4?: string | null }) => `${c.name}${c.secretLast4 ? ` (…${c.secretLast4})` : ''}`}
            emptyText="The platform's key"
            emptyValue=""
            helperText="A stored key of this tenant for this provider"
            sx={{ minWidth: 320 }}
          />
        </ReferenceInput>
      )}
      {kind === 'scripted' && (
        <TextInput
          source="draft.provider.scriptedJson"
          label="Script rules (JSON)"
          multiline
          minRows={4}
          validate={isJson}
          helperText='{ "rules": [{ "call": "speak", "reply": "Hello!" }] } — the offline model answers from these rules'
          sx={{ fontFamily: 'monospace' }}
        />
      )}
    </Stack>
  );
}
