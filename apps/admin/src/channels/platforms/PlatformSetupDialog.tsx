import { Button, Dialog, DialogActions, DialogContent, DialogTitle, TextField, Typography } from '@mui/material';

export interface PlatformSetup {
  inboundUrl: string;
  webhookRegistered: boolean;
  verifyToken?: string;
}

/** After creating a platform channel: the webhook URL (and token) to paste into the platform, shown once. */
export function PlatformSetupDialog({ setup, onClose }: { setup: PlatformSetup | null; onClose: () => void }) {
  return (
    <Dialog open={setup !== null} onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>Connect the platform</DialogTitle>
      <DialogContent>
        {setup?.webhookRegistered ? (
          <Typography variant="body2" sx={{ mb: 2 }} data-testid="webhook-registered">
            The webhook was registered at the platform for you. Messages to the bot now reach the agent.
          </Typography>
        ) : (
          <Typography variant="body2" sx={{ mb: 2 }}>
            Paste this URL into the platform&apos;s webhook settings (docs/channels.md). It is shown once: copy it now.
          </Typography>
        )}
        <TextField label="Webhook URL" value={setup?.inboundUrl ?? ''} fullWidth slotProps={{ input: { readOnly: true } }} inputProps={{ 'data-testid': 'inbound-url' }} sx={{ mb: 2 }} />
        {setup?.verifyToken && <TextField label="Verify token" value={setup.verifyToken} fullWidth slotProps={{ input: { readOnly: true } }} inputProps={{ 'data-testid': 'verify-token' }} />}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Done</Button>
      </DialogActions>
    </Dialog>
  );
}
