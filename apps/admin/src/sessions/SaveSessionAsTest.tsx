import PlaylistAddCheckIcon from '@mui/icons-material/PlaylistAddCheck';
import { Button } from '@mui/material';
import { useState } from 'react';
import { useNotify, usePermissions, useRecordContext } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import { canWrite } from '../api/roles';
import { useOpenAgentTests } from '../conversation-tests/open-agent-tests';
import { SaveTestDialog, type ConversationTurn } from '../conversation-tests/SaveTestDialog';

interface TranscriptMessage {
  direction: 'inbound' | 'outbound';
  status: string;
  text: string;
}

/**
 * The transcript as a test's turns: each answered customer message (what the API saves, in
 * order) with the agent's replies up to the next customer message.
 */
export function turnsOfTranscript(messages: readonly TranscriptMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  let current: { message: string; replies: string[] } | null = null;
  for (const m of messages) {
    if (m.direction === 'inbound') {
      if (current) turns.push({ message: current.message, reply: current.replies.join('\n'), at: null });
      current = m.status === 'answered' ? { message: m.text, replies: [] } : null;
    } else if (current) {
      current.replies.push(m.text);
    }
  }
  if (current) turns.push({ message: current.message, reply: current.replies.join('\n'), at: null });
  return turns;
}

/** "Save as test" on a session page: the customer's messages become a conversation test of the session's agent. */
export function SaveSessionAsTest() {
  const record = useRecordContext<{ id: string; agentId: string }>();
  const { permissions } = usePermissions();
  const notify = useNotify();
  const openTests = useOpenAgentTests();
  const [turns, setTurns] = useState<ConversationTurn[] | null>(null);
  const [busy, setBusy] = useState(false);
  if (!record || !canWrite(permissions)) return null;

  const open = async () => {
    setBusy(true);
    try {
      // A test keeps at most 100 customer messages; the API's page is 100 rows.
      const messages = await adminFetch<TranscriptMessage[]>('/messages', {
        query: { filter: JSON.stringify({ sessionId: record.id }), sort: JSON.stringify(['seq', 'ASC']), range: '[0,99]' },
      });
      const found = turnsOfTranscript(messages);
      if (!found.length) notify('This session has no answered customer message to test yet.', { type: 'warning' });
      else setTurns(found);
    } catch (err) {
      notify(`Could not read the transcript: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button variant="outlined" startIcon={<PlaylistAddCheckIcon />} onClick={() => void open()} disabled={busy} data-testid="save-session-as-test">
        Save as test
      </Button>
      {turns && (
        <SaveTestDialog
          agentId={record.agentId}
          from={{ sessionId: record.id }}
          turns={turns}
          onClose={() => setTurns(null)}
          onSaved={(test) => openTests(record.agentId, test.id)}
        />
      )}
    </>
  );
}
