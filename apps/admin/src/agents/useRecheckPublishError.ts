import { useEffect, useRef } from 'react';
import { useRecordContext } from 'react-admin';
import { useFormContext } from 'react-hook-form';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import type { AgentRecord } from './agent-config';
import { errorInputs } from './form-errors';
import { usePublishError, type ConfigPath } from './publish-error';

/**
 * Keeps the "Not published" banner true to the saved draft: each time the draft is saved while
 * a refusal is shown, the publish checks run again (`POST agents/:id/validate`, which publishes
 * nothing). Fixed: the banner and the input's error go. Still wrong, or wrong elsewhere: the
 * banner shows the new refusal.
 */
export function useRecheckPublishError(): void {
  const record = useRecordContext<AgentRecord>();
  const { error, setError } = usePublishError();
  const { clearErrors, formState } = useFormContext();
  const seen = useRef(record?.updatedAt);
  // The newest check wins: an answer to an older save is dropped.
  const latest = useRef(0);
  const live = useRef({ error, formState });
  live.current = { error, formState };

  useEffect(() => {
    const updatedAt = record?.updatedAt;
    if (!record || updatedAt === seen.current) return;
    seen.current = updatedAt;
    if (!live.current.error) return;
    const ticket = ++latest.current;
    adminFetch(`/agents/${record.id}/validate`, { method: 'POST' })
      .then(() => {
        if (ticket !== latest.current) return;
        setError(null);
        // The refusal was set on its input as a `server` error; once fixed, only those go.
        for (const input of errorInputs(live.current.formState.errors)) if (input.type === 'server') clearErrors(input.name);
      })
      .catch((err: unknown) => {
        if (ticket !== latest.current) return;
        const body = errorBodyOf(err);
        const path = Array.isArray(body?.details?.path) ? (body.details.path as ConfigPath) : null;
        if (path) setError({ message: messageOf(err), path });
      });
  }, [record, setError, clearErrors]);
}
