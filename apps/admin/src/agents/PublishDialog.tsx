import { Alert, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { usePermissions } from 'react-admin';
import type { TestRunResult } from '../playground/playground-api';
import { PublishTestResults } from './TestResults';

/** What the dialog asks the API to do: publish the draft, or restore a version and publish it. */
export interface PublishRequest {
  note?: string;
  overrideReason?: string;
}

/** The 422 publish-blocked-by-tests details. */
export interface BlockedByTests {
  message: string;
  total: number;
  failed: number;
  results: TestRunResult[];
}

/** Roles that may publish past failing tests (the API's OVERRIDE_ROLES). */
const OVERRIDERS = ['owner', 'platform_admin'];

/**
 * The publish confirmation: an optional note; while tests block the publish, their failing
 * expectations, and for an owner a written reason to publish anyway.
 */
export function PublishDialog({
  title,
  action,
  blocked,
  busy,
  onConfirm,
  onClose,
}: {
  title: string;
  action: string;
  blocked: BlockedByTests | null;
  busy: boolean;
  onConfirm: (req: PublishRequest) => void;
  onClose: () => void;
}) {
  const { permissions } = usePermissions();
  const [note, setNote] = useState('');
  const [reason, setReason] = useState('');
  const mayOverride = OVERRIDERS.includes(permissions as string);
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" color="text.secondary">
            Publishing replays the agent's conversation tests against the draft first; customers get the new version on their next message.
          </Typography>
          <TextField label="Note (optional)" value={note} onChange={(e) => setNote(e.target.value)} size="small" multiline placeholder="What changed, and why" />
          {blocked && (
            <>
              <Alert severity="error" data-testid="publish-blocked">
                {blocked.message}
              </Alert>
              <PublishTestResults results={blocked.results} />
              {mayOverride ? (
                <TextField
                  label="Reason to publish anyway"
                  value={reason}
                  onChange={(e) => setReason(e.target.value)}
                  size="small"
                  multiline
                  helperText="At least 10 characters; recorded in the audit log and shown in the version list"
                />
              ) : (
                <Typography variant="body2" color="text.secondary">
                  Only an owner may publish past failing tests.
                </Typography>
              )}
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        {blocked && mayOverride && (
          <Button color="warning" variant="contained" disabled={busy || reason.trim().length < 10} onClick={() => onConfirm({ note: note.trim() || undefined, overrideReason: reason.trim() })}>
            Publish anyway
          </Button>
        )}
        <Button variant="contained" disabled={busy} onClick={() => onConfirm({ note: note.trim() || undefined })} startIcon={busy ? <CircularProgress size={16} /> : undefined}>
          {blocked ? 'Test again and publish' : action}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** The blocked-by-tests details of an API error, when that is what it was. */
export function blockedOf(body: { code?: string; message?: string; details?: Record<string, unknown> } | undefined): BlockedByTests | null {
  if (body?.code !== 'publish-blocked-by-tests' || !body.details) return null;
  const d = body.details as unknown as Omit<BlockedByTests, 'message'>;
  return { message: body.message ?? 'Conversation tests failed.', total: d.total, failed: d.failed, results: d.results };
}
