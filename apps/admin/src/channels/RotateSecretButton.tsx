import AutorenewIcon from '@mui/icons-material/Autorenew';
import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle, MenuItem, TextField } from '@mui/material';
import { useState } from 'react';
import { useNotify, useRefresh } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';

const HOUR = 3600;
/** How long the replaced secret keeps signing beside the new one (the API's default is 24 h, at most 7 days). */
const GRACE_CHOICES = [
  { seconds: 0, label: 'Not at all: stop it now (a leaked secret)' },
  { seconds: HOUR, label: '1 hour' },
  { seconds: 24 * HOUR, label: '24 hours' },
  { seconds: 72 * HOUR, label: '3 days' },
  { seconds: 168 * HOUR, label: '7 days' },
];

interface RotateAnswer {
  webhookSecret: string;
  webhookSecretPreviousExpiresAt: string | null;
}

function explanation(answer: RotateAnswer | null): string {
  if (!answer) return '';
  const until = answer.webhookSecretPreviousExpiresAt;
  return until
    ? `Webhooks are signed with this secret and, until ${new Date(until).toLocaleString()}, with the old one too: switch your receiver before then.`
    : 'Webhooks are signed with this secret only, from now on.';
}

/** Replaces the channel's webhook signing secret, keeping the old one valid for a grace period; the new one is shown once. */
export function RotateSecretButton({ channelId }: { channelId: string }) {
  const notify = useNotify();
  const refresh = useRefresh();
  const [asking, setAsking] = useState(false);
  const [grace, setGrace] = useState(24 * HOUR);
  const [answer, setAnswer] = useState<RotateAnswer | null>(null);
  const rotate = async () => {
    setAsking(false);
    try {
      setAnswer(await adminFetch<RotateAnswer>(`/channels/${channelId}/rotate-secret`, { method: 'POST', body: { graceSeconds: grace } }));
      refresh();
    } catch (err) {
      notify(`Could not rotate the secret: ${messageOf(err)}`, { type: 'error' });
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<AutorenewIcon />} onClick={() => setAsking(true)}>
        Rotate webhook secret
      </Button>
      <Dialog open={asking} onClose={() => setAsking(false)}>
        <DialogTitle>Rotate the webhook signing secret?</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>
            Deliveries are signed with the new secret at once. Keep the old one valid for a while so your receiver can switch without refusing a delivery.
          </DialogContentText>
          <TextField select fullWidth label="Keep the old secret valid" value={grace} onChange={(e) => setGrace(Number(e.target.value))} data-testid="rotate-grace">
            {GRACE_CHOICES.map((c) => (
              <MenuItem key={c.seconds} value={c.seconds}>
                {c.label}
              </MenuItem>
            ))}
          </TextField>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setAsking(false)}>Cancel</Button>
          <Button variant="contained" onClick={rotate}>
            Rotate
          </Button>
        </DialogActions>
      </Dialog>
      <OneTimeSecretDialog title="New webhook signing secret" secret={answer?.webhookSecret ?? null} explanation={explanation(answer)} onClose={() => setAnswer(null)} />
    </>
  );
}
