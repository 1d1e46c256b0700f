import { Alert, Box, Tab, Tabs } from '@mui/material';
import { useState, type ReactNode } from 'react';
import { required, SaveButton, SimpleForm, TextInput, Toolbar, useRecordContext } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { PlaygroundChat } from '../playground/PlaygroundChat';
import { configFromDraft, type AgentDraft } from './agent-form-model';
import { PublishedChip } from './AgentEdit';
import { AgentTests } from './AgentTests';
import { FlowsEditor } from '../flows/FlowsEditor';
import type { AgentRecord } from './agent-config';
import { BehaviourInputs } from './BehaviourInputs';
import { FieldsEditor } from './FieldsEditor';
import { ProviderInputs } from './ProviderInputs';
import { PublishButton } from './PublishButton';
import { pathLabel, PublishErrorProvider, usePublishError, type ConfigPath } from './publish-error';
import { VersionHistory } from './VersionHistory';

const TABS = ['General', 'Fields', 'Flows', 'Tools & behaviour', 'Versions', 'Playground', 'Tests'] as const;

/** Which tab holds the input a config path names. */
function tabOf(path: ConfigPath): number {
  switch (path[0]) {
    case 'fields':
      return 1;
    case 'flows':
      return 2;
    case 'tools':
    case 'idle':
    case 'maxToolLoops':
    case 'fallbackMessage':
    case 'doubleTexting':
      return 3;
    default:
      return 0;
  }
}

function Panel({ active, children }: { active: boolean; children: ReactNode }) {
  // Hidden, not unmounted: every input stays registered, so errors can be set on any of them.
  return <Box sx={{ display: active ? 'block' : 'none', width: '100%', pt: 2 }}>{children}</Box>;
}

function PublishErrorSummary() {
  const { error } = usePublishError();
  if (!error) return null;
  return (
    <Alert severity="error" sx={{ width: '100%' }} data-testid="publish-error">
      Not published: {error.message} <b>({pathLabel(error.path)})</b>
    </Alert>
  );
}

function AgentToolbar({ onPublishError }: { onPublishError: (path: ConfigPath) => void }) {
  return (
    <Toolbar sx={{ gap: 2 }}>
      <SaveButton label="Save draft" />
      <PublishButton onError={onPublishError} />
      <PublishedChip />
    </Toolbar>
  );
}

/** The editor's playground: runs the form as it is now (unsaved changes included), the saved draft, or a version. */
function EditorPlayground({ agentId }: { agentId: string }) {
  const { getValues } = useFormContext();
  return <PlaygroundChat agentId={agentId} unsavedConfig={() => ({ ...configFromDraft((getValues() as { draft: AgentDraft }).draft) })} />;
}

function AgentTabs() {
  const record = useRecordContext<AgentRecord>();
  const [tab, setTab] = useState(0);
  return (
    <SimpleForm toolbar={<AgentToolbar onPublishError={(path) => setTab(tabOf(path))} />} sx={{ maxWidth: 1100 }}>
      <PublishErrorSummary />
      <Tabs value={tab} onChange={(_, t: number) => setTab(t)} sx={{ borderBottom: 1, borderColor: 'divider', width: '100%' }}>
        {TABS.map((t) => (
          <Tab key={t} label={t} />
        ))}
      </Tabs>
      <Panel active={tab === 0}>
        <TextInput source="name" validate={required()} />
        <TextInput source="draft.instructions" label="Instructions" multiline minRows={3} helperText="Who the agent is and how it speaks" />
        <ProviderInputs />
      </Panel>
      <Panel active={tab === 1}>
        <FieldsEditor />
      </Panel>
      <Panel active={tab === 2}>
        <FlowsEditor />
      </Panel>
      <Panel active={tab === 3}>
        <BehaviourInputs />
      </Panel>
      <Panel active={tab === 4}>{record ? <VersionHistory agentId={record.id} /> : null}</Panel>
      <Panel active={tab === 5}>{record ? <EditorPlayground agentId={record.id} /> : null}</Panel>
      <Panel active={tab === 6}>{record && tab === 6 ? <AgentTests agentId={record.id} /> : null}</Panel>
    </SimpleForm>
  );
}

/** Every part of an agent's draft, in tabs, with Save and Publish. */
export function AgentForm() {
  return (
    <PublishErrorProvider>
      <AgentTabs />
    </PublishErrorProvider>
  );
}
