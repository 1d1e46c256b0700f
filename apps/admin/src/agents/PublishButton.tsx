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

interface PublishAnswer {
  version: number;
  warnings: { message: string }[];
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
  if (!record) return null;
  // isDirty alone stays true after a save when the reloaded draft differs only in keys no input
  // edits (e.g. `extra`); unsaved input changes are what matters here.
  const unsaved = formState.isDirty && Object.keys(formState.dirtyFields).length > 0;

  const publish = async () => {
    setBusy(true);
    setPublishError(null);
    try {
      const answer = await adminFetch<PublishAnswer>(`/agents/${record.id}/publish`, { method: 'POST' });
      const warnings = answer.warnings.map((w) => w.message).join(' ');
      notify(`Published version ${answer.version}.${warnings ? ` Warnings: ${warnings}` : ''}`, { type: warnings ? 'warning' : 'success' });
      await queryClient.invalidateQueries({ queryKey: ['agent-versions', record.id] });
      refresh();
    } catch (err) {
      const body = errorBodyOf(err);
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
      <Button variant="outlined" onClick={publish} disabled={busy || unsaved} startIcon={busy ? <CircularProgress size={16} /> : <PublishIcon />}>
        Publish
      </Button>
      {unsaved && (
        <Typography variant="caption" color="text.secondary">
          Save the draft before publishing
        </Typography>
      )}
    </>
  );
}
