import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, Dialog, DialogActions, DialogContent, DialogTitle, IconButton, Tooltip, Typography } from '@mui/material';
import { useState, type ReactNode } from 'react';

interface OneTimeSecretDialogProps {
  title: string;
  /** The secret; the dialog is open while it is set. */
  secret: string | null;
  explanation: string;
  onClose: () => void;
  /** Shown under the secret (usage examples with it). */
  children?: ReactNode;
}

/** Shows a secret the API answers once (API key, webhook secret) with a copy button. */
export function OneTimeSecretDialog({ title, secret, explanation, onClose, children }: OneTimeSecretDialogProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      // Clipboard access needs a secure context; the value stays selectable.
      setCopied(false);
    }
  };
  return (
    <Dialog open={secret !== null} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        <Alert severity="warning" sx={{ mb: 2 }}>
          {explanation} It is shown only now: copy it and keep it somewhere safe.
        </Alert>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, p: 1, bgcolor: 'action.hover', borderRadius: 1 }}>
          <Typography data-testid="one-time-secret" sx={{ fontFamily: 'monospace', wordBreak: 'break-all', flex: 1, userSelect: 'all' }}>
            {secret}
          </Typography>
          <Tooltip title={copied ? 'Copied' : 'Copy'}>
            <IconButton aria-label="Copy" onClick={copy}>
              <ContentCopyIcon />
            </IconButton>
          </Tooltip>
        </Box>
        {children}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} variant="contained">
          I have copied it
        </Button>
      </DialogActions>
    </Dialog>
  );
}
