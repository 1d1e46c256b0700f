import { Stack } from '@mui/material';
import { required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { JsonInput } from '../components/JsonInput';
import { TargetInput } from './TargetInput';
import { useRegisteredNames } from './useRegisteredNames';

/**
 * The action's name: picked from the registered actions when the API lists them; typed
 * otherwise (publishing then refuses an unknown name at this input).
 */
function ActionInput({ source }: { source: string }) {
  const { actions } = useRegisteredNames();
  const value = useWatch({ name: source }) as string | undefined;
  if (actions.length === 0) {
    return <TextInput source={source} label="Action" helperText="The name it is registered under in code" validate={required()} />;
  }
  const choices = actions.map((a) => ({ id: a, name: a }));
  if (value && !actions.includes(value)) choices.push({ id: value, name: `${value} (not registered)` });
  return <SelectInput source={source} label="Action" choices={choices} validate={required()} sx={{ minWidth: 'min(240px, 100%)' }} />;
}

/** A do step: an action registered in code, its parameters and where a failure goes. */
export function DoStepInputs({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  return (
    <Stack sx={{ width: '100%' }}>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <ActionInput source={`${at}.action`} />
        <TargetInput flow={flow} step={step} source={`${at}.onFail`} label="If it fails" emptyText="Same as Then" allowSelf />
      </Stack>
      <JsonInput source={`${at}.with`} label="Parameters (JSON object)" helperText="Checked against the action's parameters when publishing" />
    </Stack>
  );
}
