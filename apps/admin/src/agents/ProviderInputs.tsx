import { Chip, Stack } from '@mui/material';
import type { ChangeEvent } from 'react';
import { ReferenceInput, required, SelectInput, TextInput, type RaRecord } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ProviderKind } from './agent-config';
import { defaultModelOf, PROVIDER_MODELS } from './provider-models';
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
  const { setValue } = useFormContext();
  const known = kind ? PROVIDER_MODELS[kind]?.known ?? [] : [];
  // Only a switch the user makes resets the model (loading a draft keeps its model); the
  // credential goes too, as credentials are per provider kind.
  const switched = (e: RaRecord | ChangeEvent<HTMLInputElement>) => {
    const next = ('target' in e && e.target ? e.target.value : (e as RaRecord).id) as ProviderKind;
    setValue('draft.provider.model', defaultModelOf(next), { shouldDirty: true, shouldValidate: true });
    setValue('draft.provider.credentialId', '', { shouldDirty: true });
  };
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['provider']} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <SelectInput source="draft.provider.kind" label="Provider" choices={KINDS} validate={required()} sx={{ minWidth: 'min(260px, 100%)' }} onChange={switched} />
        <TextInput
          source="draft.provider.model"
          label="Model"
          validate={required()}
          helperText={known.length ? 'Any model id the provider serves; known ones below' : kind === 'openai-compatible' ? "The server's model id" : undefined}
        />
      </Stack>
      {known.length > 0 && (
        <Stack direction="row" spacing={1} sx={{ mb: 2, flexWrap: 'wrap' }} data-testid="known-models">
          {known.map((m) => (
            <Chip key={m} size="small" variant="outlined" label={m} onClick={() => setValue('draft.provider.model', m, { shouldDirty: true, shouldValidate: true })} />
          ))}
        </Stack>
      )}
      {kind === 'openai-compatible' && <TextInput source="draft.provider.baseURL" label="Base URL" helperText="The server's OpenAI-compatible /v1 URL" />}
      {kind && kind !== 'scripted' && (
        <ReferenceInput source="draft.provider.credentialId" reference="provider-credentials" filter={{ kind }}>
          <SelectInput
            label="Credential"
            optionText={(c: { name: string; secretLast4?: string | null }) => `${c.name}${c.secretLast4 ? ` (…${c.secretLast4})` : ''}`}
            emptyText="The platform's key"
            emptyValue=""
            helperText="A stored key of this tenant for this provider"
            sx={{ minWidth: 'min(320px, 100%)' }}
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
