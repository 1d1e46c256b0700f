import { Chip, Tooltip } from '@mui/material';
import { useRecordContext } from 'react-admin';

interface SessionListRecord {
  id: string;
  /** From the sessions list: set when the newest turn failed or was deferred (docs/admin-api.md). */
  lastTurnFailure?: { status: 'failed' | 'deferred'; code: string | null; message: string | null; at: string } | null;
}

/** Flags a session whose newest turn failed (red) or was deferred (amber), with the code; the text is in the tooltip. */
export function LastTurnFlag(_: { label?: string }) {
  const failure = useRecordContext<SessionListRecord>()?.lastTurnFailure;
  if (!failure) return null;
  return (
    <Tooltip title={failure.message ?? ''}>
      <Chip
        size="small"
        variant="outlined"
        color={failure.status === 'failed' ? 'error' : 'warning'}
        label={`${failure.status} · ${failure.code ?? 'unknown'}`}
        data-testid="last-turn-failure"
      />
    </Tooltip>
  );
}
