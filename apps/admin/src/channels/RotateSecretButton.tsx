import AutorenewIcon from '@mui/icons-material/Autorenew';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { OneTimeSecretDialog } from '../components/OneTimeSecretDialog';

/** Replaces the channel's webhook signing secret; the new one is shown once. */
export function RotateSecretButton({ channelId }: { channelId: string }) {
  const notify = useNotify();
  const [secret, setSecret] = useState<string | null>(null);
  const rotate = async () => {
    if (!window.confirm('Rotate the webhook signing secret? Receivers must switch to the new one.')) return;
    try {
      const answer = await adminFetch<{ webhookSecret: string }>(`/channels/${channelId}/rotate-secret`, { method: 'POST' });
      setSecret(answer.webhookSecret);
    } catch (err) {
      notify(`Could not rotate the secret: ${messageOf(err)}`, { type: 'error' });
    }
  };
  return (
    <>
      <Button variant="outlined" startIcon={<AutorenewIcon />} onClick={rotate}>
        Rotate webhook secret
      </Button>
      <OneTimeSecretDialog
        title="New webhook signing secret"
        secret={secret}
        explanation="Outbound webhooks are now signed with this secret."
        onClose={() => setSecret(null)}
      />
    </>
  );
}
