import { Stack, Typography } from '@mui/material';
import { CheckboxGroupInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldForm } from '../agents/agent-form-model';
import { ArrayEditor } from '../components/ArrayEditor';
import { ChipsInput } from '../components/ChipsInput';
import type { EqualsForm } from './flow-form';
import { useRegisteredNames } from './useRegisteredNames';

const OPS = [
  { id: 'is', name: 'is' },
  { id: 'unknown', name: 'is not known yet' },
];

/** The value to compare with, as the field's type and enum allow: a select where the set is known. */
function EqualsValue({ at, field }: { at: string; field: FieldForm | undefined }) {
  const op = useWatch({ name: `${at}.op` }) as EqualsForm['op'] | undefined;
  if (op === 'unknown') return null;
  if (field?.type === 'boolean') {
    const choices = [
      { id: 'true', name: 'yes (true)' },
      { id: 'false', name: 'no (false)' },
    ];
    return <SelectInput source={`${at}.value`} label="Value" choices={choices} validate={required()} />;
  }
  if (field?.enum?.length) {
    return <SelectInput source={`${at}.value`} label="Value" choices={field.enum.map((v) => ({ id: v, name: v }))} validate={required()} />;
  }
  return <TextInput source={`${at}.value`} label="Value" />;
}

function EqualsRow({ at, fields }: { at: string; fields: FieldForm[] }) {
  const slug = useWatch({ name: `${at}.field` }) as string | undefined;
  const choices = fields.filter((f) => f.slug).map((f) => ({ id: f.slug, name: f.label ? `${f.slug} (${f.label})` : f.slug }));
  if (slug && !choices.some((c) => c.id === slug)) choices.push({ id: slug, name: `${slug} (not a field of the agent)` });
  return (
    <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
      <SelectInput source={`${at}.field`} label="Field" choices={choices} validate={required()} sx={{ minWidth: 'min(180px, 100%)' }} />
      <SelectInput source={`${at}.op`} label="Test" choices={OPS} validate={required()} sx={{ minWidth: 'min(160px, 100%)' }} />
      <EqualsValue at={at} field={fields.find((f) => f.slug === slug)} />
    </Stack>
  );
}

/** Registered conditions, ticked when the API lists them; typed otherwise. */
function ConditionsInput({ source }: { source: string }) {
  const { conditions } = useRegisteredNames();
  const picked = (useWatch({ name: source }) ?? []) as string[];
  if (conditions.length === 0) {
    return (
      <ChipsInput source={source} label="Registered conditions" helperText="Names of conditions registered in code; publishing says so if one is not registered" />
    );
  }
  const choices = [...conditions, ...picked.filter((c) => !conditions.includes(c))].map((c) => ({
    id: c,
    name: conditions.includes(c) ? c : `${c} (not registered)`,
  }));
  return <CheckboxGroupInput source={source} label="Registered conditions" choices={choices} helperText="Each ticked condition must hold" />;
}

/**
 * A code predicate: field values, fields known, registered conditions. Every part given must
 * hold; leave all empty for none (a branch that then holds by its question alone, or always).
 */
export function PredicateInputs({ source, testId }: { source: string; testId: string }) {
  const fields = (useWatch({ name: 'draft.fields' }) ?? []) as FieldForm[];
  const slugs = fields.map((f) => f.slug).filter(Boolean);
  return (
    <Stack sx={{ width: '100%' }} data-testid={testId}>
      <Typography variant="caption" color="text.secondary">
        Checked by code, no model call. Every part given must hold.
      </Typography>
      <ArrayEditor<EqualsForm>
        name={`${source}.equals`}
        testId={`${testId}-equals`}
        newItem={() => ({ field: slugs[0] ?? '', op: 'is', value: '' })}
        addLabel="Compare a field"
        itemTitle={(e) => (e?.field ? `Field “${e.field}”` : 'Field')}
        renderItem={(i) => <EqualsRow at={`${source}.equals.${i}`} fields={fields} />}
      />
      <CheckboxGroupInput
        source={`${source}.known`}
        label="Fields known"
        choices={slugs.map((s) => ({ id: s, name: s }))}
        helperText={slugs.length ? 'Holds when every ticked field has a value' : 'Add fields to the agent first'}
      />
      <ConditionsInput source={`${source}.conditions`} />
    </Stack>
  );
}
