import { Stack } from '@mui/material';
import { required, TextInput } from 'react-admin';
import { JsonInput } from '../components/JsonInput';
import { TargetInput } from './TargetInput';

/**
 * A do step: an action registered in code, its parameters and where a failure goes. The API
 * lists no registered actions yet, so the name is typed; publishing names an unknown one here.
 */
export function DoStepInputs({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  return (
    <Stack sx={{ width: '100%' }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextInput source={`${at}.action`} label="Action" helperText="The name it is registered under in code" validate={required()} />
        <TargetInput flow={flow} step={step} source={`${at}.onFail`} label="If it fails" emptyText="Same as Then" allowSelf />
      </Stack>
      <JsonInput source={`${at}.with`} label="Parameters (JSON object)" helperText="Checked against the action's parameters when publishing" />
    </Stack>
  );
}
