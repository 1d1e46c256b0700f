import { Chip, Stack } from '@mui/material';
import { CheckboxGroupInput, required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import type { FieldForm } from '../agents/agent-form-model';
import { PublishErrorAt } from '../agents/publish-error';
import { ArrayEditor } from '../components/ArrayEditor';
import { ChipsInput } from '../components/ChipsInput';
import { DurationInput } from './DurationInput';
import { emptyTrigger, type RepeatForm, type TriggerForm } from './flow-form';

const KINDS = [
  { id: 'message', name: 'A message like these phrases' },
  { id: 'mention', name: 'A message mentions… (side run)' },
  { id: 'event', name: 'An event from your system' },
  { id: 'silence', name: 'The customer is silent for…' },
];

const REPEAT = [
  { id: 'once', name: 'Once per session' },
  { id: 'always', name: 'Every time it matches' },
  { id: 'cooldown', name: 'Again after a cooldown' },
];

function TriggerRow({ flow, index }: { flow: number; index: number }) {
  const at = `draft.flows.${flow}.on.${index}`;
  const kind = useWatch({ name: `${at}.kind` }) as TriggerForm['kind'] | undefined;
  const phrases = (useWatch({ name: `${at}.message` }) ?? []) as string[];
  const repeat = useWatch({ name: `${at}.repeat` }) as RepeatForm | undefined;
  const fields = (useWatch({ name: 'draft.fields' }) ?? []) as FieldForm[];
  const slugs = fields.map((f) => f.slug).filter(Boolean);
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['flows', flow, 'on', index]} />
      <SelectInput source={`${at}.kind`} label="Starts on" choices={KINDS} validate={required()} sx={{ minWidth: 'min(320px, 100%)' }} />
      {kind === 'message' && phrases.length === 0 && (
        <Chip size="small" color="info" label="Catch-all: starts when no other flow matches" sx={{ alignSelf: 'flex-start', mb: 1 }} />
      )}
      {kind === 'message' && (
        <ChipsInput source={`${at}.message`} label="Example phrases" helperText="Phrases the customer might say. Start one with ! to exclude it. Leave empty for a catch-all." />
      )}
      {kind === 'mention' && (
        <>
          <ChipsInput source={`${at}.message`} label="Mentions" helperText="What a message must mention to start this flow beside the current one, e.g. “meu e-mail”. Start one with ! to exclude it." />
          <CheckboxGroupInput source={`${at}.extract`} label="Also read these fields from the message" choices={slugs.map((s) => ({ id: s, name: s }))} />
        </>
      )}
      {kind === 'event' && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
          <TextInput source={`${at}.event`} label="Event name" helperText="As your system reports it, e.g. carrinho-abandonado" validate={required()} />
          <DurationInput source={`${at}.after`} label="Start after (optional)" helperText="Empty = at once; else e.g. 30m" />
        </Stack>
      )}
      {kind === 'silence' && (
        <DurationInput source={`${at}.silence`} label="Silent for" helperText="Since the agent's last message, e.g. 2h" />
      )}
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <SelectInput
          source={`${at}.repeat`}
          label="Starts"
          choices={REPEAT}
          emptyText={kind === 'event' ? 'Default: every time' : 'Default: once per session'}
          emptyValue=""
          helperText={repeat ? false : kind === 'event' ? 'Default: every time' : 'Default: once per session'}
          sx={{ minWidth: 'min(240px, 100%)' }}
        />
        {repeat === 'cooldown' && <DurationInput source={`${at}.cooldown`} label="Cooldown" helperText="Since its last start, e.g. 1d" />}
      </Stack>
    </Stack>
  );
}

const title = (t: TriggerForm | undefined, i: number) => {
  const what = !t ? '' : t.kind === 'message' ? (t.message.length === 0 ? ' (catch-all)' : '') : ` (${t.kind})`;
  return `Trigger ${i + 1}${what}`;
};

/** A flow's triggers: phrases, mentions, events, the customer's silence; and how often they fire. */
export function TriggersEditor({ flow }: { flow: number }) {
  return (
    <ArrayEditor<TriggerForm>
      name={`draft.flows.${flow}.on`}
      testId={`flow-${flow}-trigger`}
      newItem={() => emptyTrigger()}
      addLabel="Add trigger"
      itemTitle={title}
      renderItem={(i) => <TriggerRow flow={flow} index={i} />}
      empty={<span>No trigger: this flow only starts when another step chains into it.</span>}
    />
  );
}
