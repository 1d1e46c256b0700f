import { Alert, Box, Tab, Tabs } from '@mui/material';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { required, SaveButton, SimpleForm, TextInput, Toolbar, useRecordContext } from 'react-admin';
import { useFormContext, useFormState } from 'react-hook-form';
import { useSearchParams } from 'react-router-dom';
import { FlowsEditor } from '../flows/FlowsEditor';
import { PlaygroundChat } from '../playground/PlaygroundChat';
import type { AgentRecord } from './agent-config';
import { configFromDraft, type AgentDraft } from './agent-form-model';
import { BudgetInput } from '../prices/BudgetInput';
import { AgentBudgetNotice } from '../dashboard/BudgetNotices';
import { PublishedChip } from './PublishedChip';
import { AgentTests } from './AgentTests';
import { BehaviourInputs } from './BehaviourInputs';
import { FieldsEditor } from './FieldsEditor';
import { errorCountsByTab, errorInputs, tabOf, TABS } from './form-errors';
import { ProviderInputs } from './ProviderInputs';
import { PublishButton } from './PublishButton';
import { pathLabel, PublishErrorProvider, usePublishError, type ConfigPath } from './publish-error';
import { useRecheckPublishError } from './useRecheckPublishError';
import { VersionHistory } from './VersionHistory';

function Panel({ active, index, children }: { active: boolean; index: number; children: ReactNode }) {
  // Hidden, not unmounted: every input stays registered, so errors can be set on any of them.
  return (
    <Box sx={{ display: active ? 'block' : 'none', width: '100%', pt: 2 }} data-tab-panel={index}>
      {children}
    </Box>
  );
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
function EditorPlayground({ agentId, onTestSaved }: { agentId: string; onTestSaved: (testId: string) => void }) {
  const { getValues } = useFormContext();
  return (
    <PlaygroundChat
      agentId={agentId}
      unsavedConfig={() => ({ ...configFromDraft((getValues() as { draft: AgentDraft }).draft) })}
      onTestSaved={(test) => onTestSaved(test.id)}
    />
  );
}

/** Scrolls the first error of a tab's panel into view (after the tab has been shown) and focuses its input. */
function scrollToFirstError(tab: number) {
  window.setTimeout(() => {
    const panel = document.querySelector(`[data-tab-panel="${tab}"]`);
    const first = panel?.querySelector<HTMLElement>('.Mui-error, [data-testid="publish-error-here"]');
    if (!first) return;
    first.scrollIntoView({ block: 'center' });
    (first.querySelector<HTMLElement>('input, textarea') ?? (first instanceof HTMLInputElement ? first : null))?.focus({ preventScroll: true });
  }, 50);
}

/** The tabs, each marked with how many errors it holds; a failed save opens the first one that has any. */
function TabbedInputs({ tab, setTab, newTest, onTestSaved }: { tab: number; setTab: (t: number) => void; newTest: string | null; onTestSaved: (testId: string) => void }) {
  const record = useRecordContext<AgentRecord>();
  const { errors, submitCount } = useFormState();
  const { error: publishError } = usePublishError();
  useRecheckPublishError();
  const counts = errorCountsByTab(errorInputs(errors), publishError?.path);
  const countsKey = counts.join(',');
  const lastSubmit = useRef(submitCount);
  useEffect(() => {
    if (submitCount === lastSubmit.current) return;
    lastSubmit.current = submitCount;
    const withErrors = countsKey.split(',').map(Number);
    if (!withErrors.some((c) => c > 0)) return;
    const target = withErrors[tab] > 0 ? tab : withErrors.findIndex((c) => c > 0);
    setTab(target);
    scrollToFirstError(target);
  }, [submitCount, countsKey, tab, setTab]);

  return (
    <>
      <Tabs value={tab} onChange={(_, t: number) => setTab(t)} variant="scrollable" scrollButtons="auto" allowScrollButtonsMobile sx={{ borderBottom: 1, borderColor: 'divider', width: '100%' }}>
        {TABS.map((t, i) => (
          <Tab
            key={t}
            data-testid={`tab-${i}`}
            data-errors={counts[i]}
            label={counts[i] ? `${t} (${counts[i]} ${counts[i] === 1 ? 'error' : 'errors'})` : t}
            sx={counts[i] ? { color: 'error.main', '&.Mui-selected': { color: 'error.main' } } : undefined}
          />
        ))}
      </Tabs>
      <Panel active={tab === 0} index={0}>
        <TextInput source="name" validate={required()} />
        <TextInput source="draft.instructions" label="Instructions" multiline minRows={3} helperText="Who the agent is and how it speaks" />
        <ProviderInputs />
        <BudgetInput
          source="monthlyBudget"
          label="Monthly budget (USD)"
          helperText="This agent's own cap, beside the tenant's; empty: none. Takes effect when saved (no publish needed). At 100% its new turns get the fallback message."
        />
        {record ? <AgentBudgetNotice agentId={record.id} tenantId={record.tenantId} /> : null}
      </Panel>
      <Panel active={tab === 1} index={1}>
        <FieldsEditor />
      </Panel>
      <Panel active={tab === 2} index={2}>
        <FlowsEditor />
      </Panel>
      <Panel active={tab === 3} index={3}>
        <BehaviourInputs />
      </Panel>
      <Panel active={tab === 4} index={4}>
        {record ? <VersionHistory agentId={record.id} /> : null}
      </Panel>
      <Panel active={tab === 5} index={5}>
        {record ? <EditorPlayground agentId={record.id} onTestSaved={onTestSaved} /> : null}
      </Panel>
      <Panel active={tab === TESTS_TAB} index={TESTS_TAB}>
        {record && tab === TESTS_TAB ? <AgentTests agentId={record.id} highlight={newTest} /> : null}
      </Panel>
    </>
  );
}

const TESTS_TAB = TABS.indexOf('Tests');

/** The tab `?tab=` names (its label, any case), else the first. */
function tabFromQuery(name: string | null): number {
  const i = TABS.findIndex((t) => t.toLowerCase() === name?.toLowerCase());
  return i < 0 ? 0 : i;
}

function AgentTabs() {
  // `?tab=tests&test=<id>` opens the Tests tab on a test saved elsewhere (a session page, the Playground menu).
  const [search] = useSearchParams();
  const [tab, setTab] = useState(() => tabFromQuery(search.get('tab')));
  const [newTest, setNewTest] = useState<string | null>(() => search.get('test'));
  const onTestSaved = useCallback((testId: string) => {
    setNewTest(testId);
    setTab(TESTS_TAB);
  }, []);
  const onPublishError = useCallback((path: ConfigPath) => {
    const target = tabOf(path);
    setTab(target);
    scrollToFirstError(target);
  }, []);
  return (
    <SimpleForm toolbar={<AgentToolbar onPublishError={onPublishError} />} sx={{ maxWidth: 1100 }}>
      <PublishErrorSummary />
      <TabbedInputs tab={tab} setTab={setTab} newTest={newTest} onTestSaved={onTestSaved} />
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
