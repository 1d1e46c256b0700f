import { Alert, Box, Button, Chip, Stack, TextField, Typography } from '@mui/material';
import { useEffect, useState } from 'react';
import { Title, useNotify } from 'react-admin';
import { Link, useParams } from 'react-router-dom';
import { messageOf } from '../api/api-fetch';
import { useCanOperate } from '../queues/ops-roles';
import { ConversationTimeline } from './ConversationTimeline';
import { inboxApi, type Conversation } from './inbox-api';
import { usePolled } from './usePolled';

/**
 * One conversation for a person: the chat with each turn inline, take over / hand back, a reply
 * box that sends through the session's channel, and internal notes. Refreshed every few seconds.
 */
export function ConversationPage() {
  const { id = '' } = useParams();
  const { data, error, reload } = usePolled(() => inboxApi.conversation(id));
  const operate = useCanOperate();
  const unread = data?.session.unread ?? 0;

  // Seen by an operator: clear the unread count (viewers only look).
  useEffect(() => {
    if (operate && unread > 0) void inboxApi.markRead(id).catch(() => undefined);
  }, [id, operate, unread]);

  if (error !== undefined && !data) return <Alert severity="error">Could not load the conversation: {messageOf(error)}</Alert>;
  if (!data) return <Typography sx={{ p: 2 }}>Loading…</Typography>;
  const { session } = data;
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900, minWidth: 0 }} data-testid="conversation-page">
      <Title title={`Conversation “${session.externalKey}”`} />
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1, mb: 1 }}>
        <Typography variant="h6" sx={{ overflowWrap: 'anywhere' }}>
          {session.externalKey}
        </Typography>
        <Chip size="small" data-testid="conversation-status" color={session.status === 'handed_off' ? 'warning' : 'success'} label={statusLabel(data)} />
        <Chip size="small" label={`${session.channel.name} (${session.channel.kind})`} />
        <Button size="small" component={Link} to="/inbox">
          Back to inbox
        </Button>
      </Stack>
      {operate && <Actions data={data} reload={reload} />}
      {data.truncated && <Typography variant="caption">Older messages are in the Messages list.</Typography>}
      <ConversationTimeline messages={data.messages} notes={data.notes} />
      {operate && <Composer data={data} reload={reload} />}
    </Box>
  );
}

function statusLabel({ session }: Conversation): string {
  if (session.status === 'active') return 'Agent answering';
  if (!session.takenOverBy) return 'Waiting for a person';
  return session.takenOverByMe ? 'Taken over by you' : `Taken over by ${session.takenOverBy}`;
}

function Actions({ data, reload }: { data: Conversation; reload: () => Promise<void> }) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  const { session } = data;
  const act = async (work: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await work();
      await reload();
      notify(done, { type: 'info' });
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack direction="row" spacing={1} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
      {!session.takenOverByMe && !(session.status === 'handed_off' && session.takenOverBy) && (
        <Button variant="contained" disabled={busy} data-testid="take-over" onClick={() => act(() => inboxApi.takeOver(session.id), 'You have the conversation: the agent is silent.')}>
          Take over
        </Button>
      )}
      {session.status === 'handed_off' && (
        <Button
          variant="outlined"
          disabled={busy}
          data-testid="inbox-hand-back"
          onClick={() => act(() => inboxApi.handBack(session.id), 'Handed back: the agent answers the next message.')}
        >
          Hand back to agent
        </Button>
      )}
    </Stack>
  );
}

function Composer({ data, reload }: { data: Conversation; reload: () => Promise<void> }) {
  const notify = useNotify();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  // One key per text typed: a retried or double-clicked send stores one reply.
  const [clientKey, setClientKey] = useState(() => crypto.randomUUID());
  const { session } = data;
  const mayReply = session.status === 'handed_off' && (session.takenOverByMe || !session.takenOverBy);

  const send = async (kind: 'reply' | 'note') => {
    setBusy(true);
    try {
      if (kind === 'reply') await inboxApi.reply(session.id, text, clientKey);
      else await inboxApi.note(session.id, text);
      setText('');
      setClientKey(crypto.randomUUID());
      await reload();
      notify(kind === 'reply' ? 'Reply sent to the customer.' : 'Note added (not sent to the customer).', { type: 'info' });
    } catch (err) {
      notify(messageOf(err), { type: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ mt: 2 }}>
      <TextField
        label="Message"
        multiline
        minRows={2}
        fullWidth
        value={text}
        onChange={(e) => setText(e.target.value)}
        helperText={mayReply ? `Replies go to the customer through ${session.channel.name}.` : 'Take the conversation over to reply; notes are always possible.'}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" disabled={busy || !mayReply || !text.trim()} onClick={() => send('reply')} data-testid="send-reply">
          Send to customer
        </Button>
        <Button variant="outlined" color="warning" disabled={busy || !text.trim()} onClick={() => send('note')} data-testid="add-note">
          Add internal note
        </Button>
      </Stack>
    </Box>
  );
}
