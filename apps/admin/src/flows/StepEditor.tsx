import { Stack, Typography } from '@mui/material';
import { CheckboxGroupInput, minValue, NumberInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { AskForm, FieldForm, StepForm } from '../agents/agent-form-model';
import { ArrayEditor } from '../components/ArrayEditor';
import { PublishErrorAt } from '../agents/publish-error';
import { BranchesEditor } from './BranchesEditor';
import { DoStepInputs } from './DoStepInputs';
import { PredicateInputs } from './PredicateInputs';
import { StepCostShare } from './StepCostShare';
import { TargetInput } from './TargetInput';
import { ToolPicker } from './ToolPicker';
import { WaitStepInputs } from './WaitStepInputs';

const KINDS = [
  { id: 'prompt', name: 'Prompt: the model speaks once' },
  { id: 'collect', name: 'Collect: ask until fields are known' },
  { id: 'say', name: 'Say: send a fixed text' },
  { id: 'do', name: 'Do: run an action' },
  { id: 'if', name: 'If: go one way or another' },
  { id: 'wait', name: 'Wait: a time or an event' },
];

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

/** Prompt and collect steps: what the model does, fields, tools and branches on the reply. */
function TalkStepInputs({ flow, step, kind }: { flow: number; step: number; kind: 'prompt' | 'collect' }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  const fields = (useWatch({ name: 'draft.fields' }) ?? []) as FieldForm[];
  const slugs = fields.map((f) => f.slug).filter(Boolean);
  // A collected slug the agent no longer has stays listed, marked, so it can be unticked.
  const collected = (useWatch({ name: `${at}.collect` }) ?? []) as string[];
  const stale = collected.filter((s) => !slugs.includes(s));
  const choices = [...slugs.map((s) => ({ id: s, name: s })), ...stale.map((s) => ({ id: s, name: `${s} (not a field of this agent: untick it)` }))];
  return (
    <>
      {kind === 'collect' && (
        <>
          <CheckboxGroupInput
            source={`${at}.collect`}
            label="Collect"
            choices={choices}
            helperText={slugs.length ? 'Fields this step asks for until they are known' : 'Add fields to the agent first'}
          />
          <TextInput source={`${at}.question`} label="Fixed first question (optional)" helperText="Sent word for word the first time, without a model call" />
          <NumberInput source={`${at}.maxAsks`} label="Ask at most (times)" min={1} validate={minValue(1)} helperText="Default 3" />
          <AskOverrides flow={flow} step={step} />
        </>
      )}
      <TextInput source={`${at}.prompt`} label={kind === 'prompt' ? 'Prompt' : 'Prompt (optional)'} multiline minRows={2} validate={kind === 'prompt' ? required() : undefined} />
      <ToolPicker source={`${at}.tools`} noToolsSource={`${at}.noTools`} label="Tools this step may use" helperText="Narrows the flow's tools; none ticked = the flow's" />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Branches on the customer's reply
      </Typography>
      <BranchesEditor flow={flow} step={step} />
    </>
  );
}

/** One step's inputs, by kind; every kind has Then (where the run goes next). */
export function StepEditor({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  const kind = useWatch({ name: `${at}.kind` }) as StepForm['kind'] | undefined;
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['flows', flow, 'steps', step]} />
      <StepCostShare flow={flow} step={step} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextInput source={`${at}.id`} label="Step id" validate={required()} />
        <SelectInput source={`${at}.kind`} label="Kind" choices={KINDS} validate={required()} sx={{ minWidth: 'min(300px, 100%)' }} />
        <TargetInput flow={flow} step={step} source={`${at}.then`} label={kind === 'if' ? 'If it holds, then' : 'Then'} emptyText="The next step" />
      </Stack>
      {kind === 'say' && <TextInput source={`${at}.say`} label="Text to send, word for word" multiline validate={required()} />}
      {(kind === 'prompt' || kind === 'collect') && <TalkStepInputs flow={flow} step={step} kind={kind} />}
      {kind === 'do' && <DoStepInputs flow={flow} step={step} />}
      {kind === 'if' && (
        <>
          <PredicateInputs source={`${at}.predicate`} testId={`flow-${flow}-step-${step}-if`} />
          <TargetInput flow={flow} step={step} source={`${at}.else`} label="Otherwise" emptyText="End the flow" allowSelf />
        </>
      )}
      {kind === 'wait' && <WaitStepInputs flow={flow} step={step} />}
    </Stack>
  );
}
