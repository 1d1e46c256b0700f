import { Chip, Stack } from '@mui/material';
import { SelectInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { ChipsInput } from '../components/ChipsInput';
import type { TriggerForm } from '../agents/agent-form-model';
import { ArrayEditor } from '../components/ArrayEditor';

const REPEAT = [
  { id: 'once', name: 'Once per session' },
  { id: 'always', name: 'Every time it matches' },
];

function TriggerRow({ flow, index }: { flow: number; index: number }) {
  const at = `draft.flows.${flow}.on.${index}`;
  const phrases = (useWatch({ name: `${at}.message` }) ?? []) as string[];
  return (
    <Stack sx={{ width: '100%' }}>
      {phrases.length === 0 && <Chip size="small" color="info" label="Catch-all: starts when no other flow matches" sx={{ alignSelf: 'flex-start', mb: 1 }} />}
      <ChipsInput
        source={`${at}.message`}
        label="Example phrases"
        helperText="Phrases the customer might say. Start one with ! to exclude it. Leave empty for a catch-all."
      />
      <SelectInput source={`${at}.repeat`} label="Starts" choices={REPEAT} sx={{ minWidth: 240 }} />
    </Stack>
  );
}

/** A flow's triggers: example phrases, exclusions (`!phrase`), or a catch-all (no phrase). */
export function TriggersEditor({ flow }: { flow: number }) {
  return (
    <ArrayEditor<TriggerForm>
      name={`draft.flows.${flow}.on`}
      testId={`flow-${flow}-trigger`}
      newItem={() => ({ message: [], repeat: 'once', extra: {} })}
      addLabel="Add trigger"
      itemTitle={(t, i) => (t && t.message.length === 0 ? `Trigger ${i + 1} (catch-all)` : `Trigger ${i + 1}`)}
      renderItem={(i) => <TriggerRow flow={flow} index={i} />}
      empty={<span>No trigger: this flow only starts when another step chains into it.</span>}
    />
  );
}
