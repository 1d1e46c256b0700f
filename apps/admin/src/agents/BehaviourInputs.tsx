import { Stack, Typography } from '@mui/material';
import { maxValue, minValue, NumberInput, RadioButtonGroupInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ToolPicker } from '../flows/ToolPicker';
import { AllowedToolsInput } from './AllowedToolsInput';
import { PublishErrorAt } from './publish-error';

const IDLE = [
  { id: 'default', name: 'Default speaker' },
  { id: 'speaker', name: 'Custom: prompt and tools' },
  { id: 'silent', name: 'Silent (no answer)' },
];
const POLICIES = [
  { id: 'sequential', name: 'Answer each message in order' },
  { id: 'merge', name: 'Merge a burst into one turn' },
];

/** Allow-list, idle speaker, tool loops, fallback message and double texting. */
export function BehaviourInputs() {
  const idleMode = useWatch({ name: 'draft.idle.mode' }) as string | undefined;
  const policy = useWatch({ name: 'draft.doubleTexting.policy' }) as string | undefined;
  return (
    <Stack sx={{ width: '100%' }} spacing={1}>
      <AllowedToolsInput />
      <Typography variant="subtitle1">When no flow runs</Typography>
      <PublishErrorAt prefix={['idle']} />
      <RadioButtonGroupInput source="draft.idle.mode" label="Idle speaker" choices={IDLE} />
      {idleMode === 'speaker' && (
        <>
          <TextInput source="draft.idle.prompt" label="Idle prompt" multiline />
          <TextInput source="draft.idle.instructions" label="Idle instructions" multiline />
          <ToolPicker source="draft.idle.tools" label="Tools the idle speaker may use" />
        </>
      )}
      <Typography variant="subtitle1">Limits and failures</Typography>
      <PublishErrorAt prefix={['maxToolLoops']} />
      <NumberInput source="draft.maxToolLoops" label="Max tool loops per answer" min={0} max={20} validate={[minValue(0), maxValue(20)]} helperText="Default 5" />
      <PublishErrorAt prefix={['fallbackMessage']} />
      <TextInput source="draft.fallbackMessage" label="Fallback message" multiline helperText="Sent to the customer when a turn fails for good" />
      <Typography variant="subtitle1">Double texting</Typography>
      <PublishErrorAt prefix={['doubleTexting']} />
      <RadioButtonGroupInput source="draft.doubleTexting.policy" label="Several messages in a row" choices={POLICIES} />
      {policy === 'merge' && (
        <NumberInput source="draft.doubleTexting.mergeWindowMs" label="Merge window (ms)" min={0} max={60000} validate={[minValue(0), maxValue(60000)]} />
      )}
    </Stack>
  );
}
