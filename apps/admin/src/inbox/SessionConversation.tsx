import { Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { messageOf } from '../api/api-fetch';
import { ConversationTimeline } from './ConversationTimeline';
import { inboxApi } from './inbox-api';
import { usePolled } from './usePolled';

/** The session page reads along more slowly than the inbox, where a person is answering. */
const SESSION_POLL_MS = 10_000;

/**
 * The session page's transcript: each customer message with the turn that answered it right
 * under it (model, failure flag, outcome codes) and the desk's internal notes where they were
 * written. The same API and drawing as the inbox's conversation, without its actions.
 */
export function SessionConversation() {
  const record = useRecordContext<{ id: string }>();
  return record ? <Loaded id={record.id} /> : null;
}

function Loaded({ id }: { id: string }) {
  const { data, error } = usePolled(() => inboxApi.conversation(id), SESSION_POLL_MS);
  if (error !== undefined && !data) return <Typography color="error">Could not load the messages: {messageOf(error)}</Typography>;
  if (!data) return <Typography color="text.secondary">Loading messages…</Typography>;
  return (
    <>
      {data.truncated && <Typography variant="caption">Only the newest messages are shown; the Messages list has them all.</Typography>}
      <ConversationTimeline messages={data.messages} notes={data.notes} />
    </>
  );
}
