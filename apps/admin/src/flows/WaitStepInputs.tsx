import { Stack } from '@mui/material';
import { AutocompleteInput, BooleanInput, CheckboxGroupInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { DurationInput } from './DurationInput';
import type { WaitForm } from './flow-form';
import { TargetInput } from './TargetInput';

const MODES = [
  { id: 'timer', name: 'A time: follow up when nobody answers' },
  { id: 'event', name: 'An event reported by your system' },
];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].map((name, id) => ({ id, name }));
const HHMM = /^([01]\d|2[0-3]):[0-5]\d$/;
const hhmm = (value: string) => (value && !HHMM.test(value) ? 'A time as HH:MM, 00:00 to 23:59' : undefined);
const TIME_ZONES = Intl.supportedValuesOf('timeZone').map((z) => ({ id: z, name: z }));

function BusinessHours({ at }: { at: string }) {
  const enabled = useWatch({ name: `${at}.hours.enabled` }) as boolean | undefined;
  return (
    <>
      <BooleanInput source={`${at}.hours.enabled`} label="Only during business hours" helperText="A follow-up due while closed is sent at the next opening" />
      {enabled && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
          <TextInput source={`${at}.hours.start`} label="Opens (HH:MM)" validate={[required(), hhmm]} sx={{ width: 140 }} />
          <TextInput source={`${at}.hours.end`} label="Closes (HH:MM)" validate={[required(), hhmm]} sx={{ width: 140 }} />
          <CheckboxGroupInput source={`${at}.hours.days`} label="Days" choices={DAYS} helperText="None ticked = Monday to Friday" />
          <AutocompleteInput source={`${at}.hours.timeZone`} label="Time zone" choices={TIME_ZONES} helperText="Default UTC" emptyText="UTC" sx={{ minWidth: 'min(240px, 100%)' }} />
        </Stack>
      )}
    </>
  );
}

/** A wait step: a timer (with a follow-up when the customer stays silent) or an event. */
export function WaitStepInputs({ flow, step }: { flow: number; step: number }) {
  const at = `draft.flows.${flow}.steps.${step}`;
  const mode = useWatch({ name: `${at}.wait.mode` }) as WaitForm['mode'] | undefined;
  return (
    <Stack sx={{ width: '100%' }}>
      <SelectInput source={`${at}.wait.mode`} label="Wait for" choices={MODES} validate={required()} sx={{ minWidth: 'min(320px, 100%)' }} />
      {mode === 'event' ? (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextInput source={`${at}.wait.event`} label="Event name" helperText="As your system reports it, e.g. pagamento-aprovado" validate={required()} />
          <DurationInput source={`${at}.wait.upTo`} label="Give up after" helperText="Default 30d" />
          <TargetInput flow={flow} step={step} source={`${at}.else`} label="If it does not come in time" emptyText="End the flow" allowSelf />
        </Stack>
      ) : (
        <>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            <DurationInput source={`${at}.wait.duration`} label="Wait" />
            <TargetInput flow={flow} step={step} source={`${at}.else`} label="If the customer replies first" emptyText="End the flow" allowSelf />
          </Stack>
          <BusinessHours at={at} />
        </>
      )}
    </Stack>
  );
}
