import { Box, Divider, Stack, Typography } from '@mui/material';
import { required, SelectInput, TextInput } from 'react-admin';
import { useWatch } from 'react-hook-form';
import { emptyFlow, emptyStep, type FlowForm, type StepForm } from './flow-form';
import { PublishErrorAt } from '../agents/publish-error';
import { ArrayEditor } from '../components/ArrayEditor';
import { StepEditor } from './StepEditor';
import { ToolPicker } from './ToolPicker';
import { TriggersEditor } from './TriggersEditor';
import { FlowGraphPanel } from './graph/FlowGraphPanel';

const ON_END = [
  { id: 'end', name: 'End the flow' },
  { id: 'stay', name: 'Stay on the last step (it answers again)' },
  { id: 'reset', name: 'Reset: forget its fields, may start again' },
];

function FlowCard({ flow }: { flow: number }) {
  const at = `draft.flows.${flow}`;
  const steps = (useWatch({ name: `${at}.steps` }) ?? []) as StepForm[];
  const onEnd = useWatch({ name: `${at}.onEnd` }) as string | undefined;
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['flows', flow]} unless={(p) => (p[2] === 'steps' || p[2] === 'on') && typeof p[3] === 'number'} />
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <TextInput source={`${at}.id`} label="Flow id" validate={required()} />
        <TextInput source={`${at}.name`} label="Name" />
      </Stack>
      <TextInput source={`${at}.description`} label="Description" />
      <TextInput source={`${at}.instructions`} label="Instructions for this flow" multiline />
      <Typography variant="subtitle2" sx={{ mt: 1 }}>
        Triggers
      </Typography>
      <TriggersEditor flow={flow} />
      <ToolPicker
        source={`${at}.tools`}
        noToolsSource={`${at}.noTools`}
        label="Tools this flow may use"
        helperText="Narrows the agent's allow-list; none ticked = all of the agent's"
      />
      <SelectInput source={`${at}.onEnd`} label="After the last step" choices={ON_END} emptyText="Default: end the flow" emptyValue="" helperText={onEnd ? false : 'Default: end the flow'} sx={{ minWidth: 'min(320px, 100%)' }} />
      <Divider sx={{ my: 1 }} />
      {/* The flow's graph beside the steps' form on wide screens (the step inputs need ~700 px);
          above it on narrower ones, where clicking a node scrolls down to its step. */}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: 'minmax(0, 1fr)', xl: 'minmax(0, 3fr) minmax(0, 2fr)' }, gap: 2 }}>
        <Box sx={{ minWidth: 0 }}>
          <FlowGraphPanel flow={flow} />
        </Box>
        <Box sx={{ minWidth: 0, order: { xl: -1 } }}>
          <Typography variant="subtitle2">Steps</Typography>
          <ArrayEditor<StepForm>
            name={`${at}.steps`}
            testId={`flow-${flow}-step`}
            newItem={() => emptyStep('prompt', `step${steps.length + 1}`)}
            addLabel="Add step"
            itemTitle={(s, i) => `Step ${i + 1}${s?.id ? ` · ${s.id}` : ''}${s?.kind ? ` (${s.kind})` : ''}`}
            renderItem={(i) => <StepEditor flow={flow} step={i} />}
            empty={<span>No steps yet.</span>}
          />
        </Box>
      </Box>
    </Stack>
  );
}

/** The agent's flows: triggers, tools and ordered steps of each. */
export function FlowsEditor() {
  const flows = (useWatch({ name: 'draft.flows' }) ?? []) as FlowForm[];
  return (
    <Stack sx={{ width: '100%' }}>
      <PublishErrorAt prefix={['flows']} unless={(p) => typeof p[1] === 'number'} />
      <ArrayEditor<FlowForm>
        name="draft.flows"
        testId="flow"
        newItem={() => emptyFlow(`flow${flows.length + 1}`)}
        addLabel="Add flow"
        itemTitle={(f, i) => `Flow ${i + 1}${f?.name || f?.id ? ` · ${f.name || f.id}` : ''}`}
        renderItem={(i) => <FlowCard flow={i} />}
        empty={<span>No flows: the idle speaker answers every message.</span>}
      />
    </Stack>
  );
}
