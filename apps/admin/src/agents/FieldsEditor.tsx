import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, Stack } from '@mui/material';
import { useState } from 'react';
import { regex, required, SelectInput, TextInput } from 'react-admin';
import { useFormContext, useWatch } from 'react-hook-form';
import { ArrayEditor } from '../components/ArrayEditor';
import { ChipsInput } from '../components/ChipsInput';
import { fieldReferences, removeFieldReferenceEdits, type FieldReference } from '../flows/field-references';
import type { FieldForm, FlowForm } from './agent-form-model';
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

interface PendingRemoval {
  slug: string;
  references: FieldReference[];
  remove: () => void;
}

/** Asks before deleting a field the flows use, listing where, and removes those uses with it. */
function RemoveUsedFieldDialog({ pending, onClose }: { pending: PendingRemoval | null; onClose: () => void }) {
  const { getValues, setValue } = useFormContext();
  if (!pending) return null;
  const removeAll = () => {
    const flows = (getValues('draft.flows') ?? []) as FlowForm[];
    for (const edit of removeFieldReferenceEdits(flows, pending.slug)) setValue(edit.path, edit.value, { shouldDirty: true });
    pending.remove();
    onClose();
  };
  const n = pending.references.length;
  return (
    <Dialog open onClose={onClose} data-testid="remove-field-dialog">
      <DialogTitle>Field “{pending.slug}” is in use</DialogTitle>
      <DialogContent>
        <DialogContentText component="div">
          The flows use it in {n === 1 ? 'one place' : `${n} places`}; a flow that names a field the agent no longer has cannot be published.
          <ul>
            {pending.references.map((r) => (
              <li key={`${r.path}-${r.where}`}>{r.where}</li>
            ))}
          </ul>
        </DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Keep the field</Button>
        <Button color="error" variant="contained" onClick={removeAll}>
          Remove the field and {n === 1 ? 'its use' : `its ${n} uses`}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The agent's fields: slug, type, enum, description, label, ask, extract. */
export function FieldsEditor({ readOnly }: { readOnly?: boolean }) {
  const { getValues } = useFormContext();
  const [pending, setPending] = useState<PendingRemoval | null>(null);
  const confirmRemove = (index: number, remove: () => void) => {
    const fields = (getValues('draft.fields') ?? []) as FieldForm[];
    const slug = fields[index]?.slug?.trim() ?? '';
    // Another field with the same slug keeps the references valid.
    const duplicate = fields.some((f, i) => i !== index && f.slug?.trim() === slug);
    const references = duplicate ? [] : fieldReferences((getValues('draft.flows') ?? []) as FlowForm[], slug);
    if (references.length === 0) remove();
    else setPending({ slug, references, remove });
  };
  return (
    <Stack sx={{ width: '100%' }}>
      <RemoveUsedFieldDialog pending={pending} onClose={() => setPending(null)} />
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
        onRemove={confirmRemove}
      />
    </Stack>
  );
}
