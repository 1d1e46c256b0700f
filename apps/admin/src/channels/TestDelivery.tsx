import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Stack, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useRecordContext } from 'react-admin';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import { HttpAnswer } from '../components/HttpAnswer';

type TestDeliveryAnswer = { webhookId: string; url: string; ms: number } & (
  | { ok: true; status: number; headers: Record<string, string>; body: string; truncated: boolean }
  | { ok: false; error: { code: string; message: string } }
);

function Answer({ answer }: { answer: TestDeliveryAnswer }) {
  return (
    <Stack spacing={1}>
      <Typography variant="body2" color="text.secondary">
        Sent a <code>webhook.test</code> event to {answer.url} with <code>webhook-id</code> {answer.webhookId}.
      </Typography>
      {answer.ok ? (
        <HttpAnswer {...answer} failureNote="a real delivery would be retried" testId="test-delivery" />
      ) : (
        <Alert severity="warning" data-testid="test-delivery-error">
          <strong>{answer.error.code}</strong>: {answer.error.message} ({answer.ms} ms)
        </Alert>
      )}
    </Stack>
  );
}

/**
 * "Send test delivery" on a channel's edit page: a worker sends a signed `webhook.test` event to
 * the saved webhook URL, exactly as it sends replies (signature, outbound guard), and the console
 * shows what the receiver answered.
 */
export function TestDelivery() {
  const record = useRecordContext<{ id: string; webhookUrl: string | null }>();
  const send = useMutation({ mutationFn: (id: string) => adminFetch<TestDeliveryAnswer>(`/channels/${id}/test-delivery`, { method: 'POST' }) });
  if (!record) return null;
  const apiError = send.error ? errorBodyOf(send.error) : undefined;
  return (
    <Stack spacing={1} data-testid="test-delivery">
      <Typography variant="h6">Test delivery</Typography>
      <Typography variant="body2" color="text.secondary">
        Sends a signed sample event to the saved webhook URL from a worker, as replies are sent. Save your changes first.
      </Typography>
      <Box>
        <Button variant="outlined" startIcon={<SendIcon />} onClick={() => send.mutate(record.id)} disabled={send.isPending || !record.webhookUrl}>
          {send.isPending ? 'Sending…' : 'Send test delivery'}
        </Button>
      </Box>
      {!record.webhookUrl && <Typography color="text.secondary">Set a webhook URL and save to send a test delivery.</Typography>}
      {send.error ? (
        <Alert severity="error" data-testid="test-delivery-refused">
          {apiError?.code ? <strong>{apiError.code}: </strong> : null}
          {messageOf(send.error)}
        </Alert>
      ) : null}
      {send.data && !send.isPending ? <Answer answer={send.data} /> : null}
    </Stack>
  );
}
