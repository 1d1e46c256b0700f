import { Stack } from '@mui/material';
import { CheckboxGroupInput, minValue, NumberInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { AskForm, FieldForm, StepForm } from '../agents/agent-form-model';
import { ArrayEditor } from '../components/ArrayEditor';
import { PublishErrorAt } from '../agents/publish-error';
import { ToolPicker } from './ToolPicker';

const KINDS = [
  { id: 'prompt', name: 'Prompt: the model speaks once' },
  { id: 'collect', name: 'Collect: ask until fields are known' },
  { id: 'say', name: 'Say: send a fixed text' },
];

/** Where the run goes after the step: the next one by default, a step of this flow, or the end. */
function ThenInput({ flow, step }: { flow: number; step: number }) {
  const steps = (useWatch({ name: `draft.flows.${flow}.steps` }) ?? []) as StepForm[];
  const choices = [
    ...steps.filter((s, i) => i !== step && s.id).map((s) => ({ id: s.id, name: `Go to “${s.id}”` })),
    { id: 'end', name: 'End the flow' },
  ];
  return <SelectInput source={`draft.flows.${flow}.steps.${step}.then`} label="Then" choices={choices} emptyText="The next step" emptyValue="" sx={{ minWidth: 220 }} />;
}

function AskOverrides({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  const collect = (useWatch({ name: `${at}.collect` }) ?? []) as string[];
  return (
    <ArrayEditor<AskForm>
      name={`${at}.askList`}
      testId={`flow-${flow}-step-${step}-ask`}
      newItem={() => ({ slug: collect[0] ?? '', text: '' })}
      addLabel="Override how a field is asked"
      itemTitle={(a) => (a?.slug ? `Ask for “${a.slug}”` : 'Ask override')}
      renderItem={(i) => (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ width: '100%' }}>
          <SelectInput source={`${at}.askList.${i}.slug`} label="Field" choices={collect.map((c) => ({ id: c, name: c }))} validate={required()} />
          <TextInput source={`${at}.askList.${i}.text`} label="How to ask in this step" validate={required()} />
        </Stack>
      )}
    />
  );
}

/** One step's inputs, by kind: prompt, collect (from the agent's fields), say; tools; then. */
export function StepEditor({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  const kind = useWatch({ name: `${at}.kind` }) as StepForm['kind'] | undefined;
  const fields = (useWatch({ name: 'draft.fields' }) ?? []) as FieldForm[];
  const slugs = fields.map((f) => f.slug).filter(Boolean);
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['flows', flow, 'steps', step]} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextInput source={`${at}.id`} label="Step id" validate={required()} />
        <SelectInput source={`${at}.kind`} label="Kind" choices={KINDS} validate={required()} sx={{ minWidth: 300 }} />
        <ThenInput flow={flow} step={step} />
      </Stack>
      {kind === 'say' && <TextInput source={`${at}.say`} label="Text to send, word for word" multiline validate={required()} />}
      {kind === 'collect' && (
        <>
          <CheckboxGroupInput
            source={`${at}.collect`}
            label="Collect"
            choices={slugs.map((s) => ({ id: s, name: s }))}
            helperText={slugs.length ? 'Fields this step asks for until they are known' : 'Add fields to the agent first'}
          />
          <TextInput source={`${at}.question`} label="Fixed first question (optional)" helperText="Sent word for word the first time, without a model call" />
          <NumberInput source={`${at}.maxAsks`} label="Ask at most (times)" min={1} validate={minValue(1)} helperText="Default 3" />
          <AskOverrides flow={flow} step={step} />
        </>
      )}
      {(kind === 'prompt' || kind === 'collect') && (
        <>
          <TextInput source={`${at}.prompt`} label={kind === 'prompt' ? 'Prompt' : 'Prompt (optional)'} multiline minRows={2} validate={kind === 'prompt' ? required() : undefined} />
          <ToolPicker source={`${at}.tools`} label="Tools this step may use" helperText="Narrows the flow's tools; none ticked = the flow's" />
        </>
      )}
    </Stack>
  );
}
