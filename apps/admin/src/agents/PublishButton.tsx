import PublishIcon from '@mui/icons-material/Publish';
import { Button, CircularProgress, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNotify, useRecordContext, useRefresh } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import type { AgentRecord } from './agent-config';
import { formPathOf, type AgentDraft } from './agent-form-model';
import { pathLabel, usePublishError, type ConfigPath } from './publish-error';
import { blockedOf, PublishDialog, type BlockedByTests, type PublishRequest } from './PublishDialog';

export interface PublishAnswer {
  version: number;
  warnings: { message: string }[];
  tests: { total: number; passed: number; failed: number; overrideReason?: string };
}

/** The toast of a publish: the version, what its tests did, and the engine's warnings. */
export function publishedMessage(answer: PublishAnswer): string {
  const warnings = answer.warnings.map((w) => w.message).join(' ');
  const tests = answer.tests.total
    ? answer.tests.failed
      ? ` Published past ${answer.tests.failed} failing test(s).`
      : ` ${answer.tests.passed} test(s) passed.`
    : '';
  return `Version ${answer.version} published.${tests}${warnings ? ` Warnings: ${warnings}` : ''}`;
}

/**
 * Publishes the saved draft. The engine's refusal (422 flow-configuration) is shown at the input
 * its JSON path names and in the part of the form that holds it; `onError` opens that part.
 */
export function PublishButton({ onError }: { onError: (path: ConfigPath) => void }) {
  const record = useRecordContext<AgentRecord>();
  const { formState, setError, getValues } = useFormContext();
  const { setError: setPublishError } = usePublishError();
  const notify = useNotify();
  const refresh = useRefresh();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [open, setOpen] = useState(false);
  const [blocked, setBlocked] = useState<BlockedByTests | null>(null);
  if (!record) return null;
  // isDirty alone stays true after a save when the reloaded draft differs only in keys no input
  // edits (e.g. `extra`); unsaved input changes are what matters here.
  const unsaved = formState.isDirty && Object.keys(formState.dirtyFields).length > 0;

  const publish = async (req: PublishRequest) => {
    setBusy(true);
    setPublishError(null);
    try {
      const answer = await adminFetch<PublishAnswer>(`/agents/${record.id}/publish`, { method: 'POST', body: req });
      notify(publishedMessage(answer), { type: answer.warnings.length || answer.tests.failed ? 'warning' : 'success' });
      setOpen(false);
      setBlocked(null);
      await queryClient.invalidateQueries({ queryKey: ['agent-versions', record.id] });
      await queryClient.invalidateQueries({ queryKey: ['agent-tests', record.id] });
      refresh();
    } catch (err) {
      const body = errorBodyOf(err);
      const tests = blockedOf(body);
      if (tests) {
        setBlocked(tests);
        return;
      }
      setOpen(false);
      const path = body?.code === 'flow-configuration' || Array.isArray(body?.details?.path) ? ((body?.details?.path ?? []) as ConfigPath) : null;
      if (path) {
        const message = messageOf(err);
        setPublishError({ message, path });
        const input = formPathOf(path, (getValues() as { draft: AgentDraft }).draft);
        if (input) setError(input, { type: 'server', message });
        onError(path);
        notify(`Not published: ${message} (at ${pathLabel(path)})`, { type: 'error', autoHideDuration: 10_000 });
      } else {
        notify(`Not published: ${messageOf(err)}`, { type: 'error' });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" onClick={() => setOpen(true)} disabled={busy || unsaved} startIcon={busy ? <CircularProgress size={16} /> : <PublishIcon />}>
        Publish
      </Button>
      {open && (
        <PublishDialog
          title="Publish the draft"
          action="Publish"
          blocked={blocked}
          busy={busy}
          onConfirm={(req) => void publish(req)}
          onClose={() => {
            setOpen(false);
            setBlocked(null);
          }}
        />
      )}
      {unsaved && (
        <Typography variant="caption" color="text.secondary">
          Save the draft before publishing
        </Typography>
      )}
    </>
  );
}
