import { Stack } from '@mui/material';
import { regex, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ArrayEditor } from '../components/ArrayEditor';
import { ChipsInput } from '../components/ChipsInput';
import type { FieldForm } from './agent-form-model';
import { PublishErrorAt } from './publish-error';

const TYPES = ['string', 'number', 'integer', 'boolean'].map((t) => ({ id: t, name: t }));
const EXTRACT = [
  { id: 'anywhere', name: 'Anywhere in the conversation' },
  { id: 'asked', name: 'Only when asked' },
];
const SLUG = regex(/^[a-zA-Z_][a-zA-Z0-9_]*$/, 'A slug is a letter or _ then letters, digits or _');

const newField = (): FieldForm => ({ slug: '', type: 'string', enum: [], description: '', label: '', ask: '' });

function FieldRow({ index }: { index: number }) {
  const at = (key: string) => `draft.fields.${index}.${key}`;
  const slug = useWatch({ name: at('slug') }) as string | undefined;
  return (
    <Stack sx={{ width: '100%' }}>
      {slug ? <PublishErrorAt prefix={['fields', slug]} /> : null}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextInput source={at('slug')} label="Slug" validate={[required(), SLUG]} />
        <SelectInput source={at('type')} label="Type" choices={TYPES} validate={required()} />
        <TextInput source={at('label')} label="Label (for people)" />
        <SelectInput source={at('extract')} label="Extract" choices={EXTRACT} emptyText="Default" emptyValue="" />
      </Stack>
      <TextInput source={at('description')} label="Description (the model reads it)" />
      <TextInput source={at('ask')} label="How to ask for it" />
      <ChipsInput source={at('enum')} label="Allowed values (optional)" helperText="Leave empty to accept any value of the type" />
    </Stack>
  );
}

/** The agent's fields: slug, type, enum, description, label, ask, extract. */
export function FieldsEditor({ readOnly }: { readOnly?: boolean }) {
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['fields']} unless={(p) => p.length > 1} />
      <ArrayEditor<FieldForm>
        name="draft.fields"
        testId="field"
        newItem={newField}
        addLabel="Add field"
        itemTitle={(f, i) => (f?.slug ? `Field “${f.slug}”` : `Field ${i + 1}`)}
        renderItem={(i) => <FieldRow index={i} />}
        empty={<span>No fields yet: add the facts this agent collects from customers.</span>}
        readOnly={readOnly}
      />
    </Stack>
  );
}
