import { alpha, Box, Chip, Paper, Stack, Typography } from '@mui/material';
import type { ConversationMessage, InlineTurn, Note } from './inbox-api';

type Entry = { at: string; message: ConversationMessage; note?: never } | { at: string; note: Note; message?: never };

/** Messages and notes in time order (messages keep their seq order among themselves). */
function entries(messages: ConversationMessage[], notes: Note[]): Entry[] {
  const out: Entry[] = messages.map((m) => ({ at: m.createdAt, message: m }));
  for (const note of notes) {
    const i = out.findIndex((e) => e.at > note.createdAt);
    out.splice(i === -1 ? out.length : i, 0, { at: note.createdAt, note });
  }
  return out;
}

/** Who wrote a message, as the operator reads it. */
function author(m: ConversationMessage): string {
  if (m.direction === 'inbound') return 'Customer';
  if (m.kind === 'human') return 'Operator';
  if (m.kind === 'fallback') return 'Agent (fallback)';
  return 'Agent';
}

/**
 * A session as a chat, each customer message followed by the turn that answered it (model,
 * failure flag, outcome codes), and the internal notes in yellow where they were written.
 */
export function ConversationTimeline({ messages, notes }: { messages: ConversationMessage[]; notes: Note[] }) {
  if (messages.length === 0 && notes.length === 0) return <Typography color="text.secondary">No messages in this session yet.</Typography>;
  return (
    <Stack spacing={1.5} data-testid="transcript" sx={{ py: 1, minWidth: 0 }}>
      {entries(messages, notes).map((e) => (e.note ? <NoteBubble key={e.note.id} note={e.note} /> : <MessageBubble key={e.message.id} m={e.message} />))}
    </Stack>
  );
}

function MessageBubble({ m }: { m: ConversationMessage }) {
  const ours = m.direction === 'outbound';
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', alignItems: ours ? 'flex-end' : 'flex-start', minWidth: 0 }}>
      <Paper
        variant="outlined"
        data-testid={`message-${m.direction}`}
        sx={{
          px: 2,
          py: 1,
          maxWidth: { xs: '90%', sm: '70%' },
          overflowWrap: 'anywhere',
          bgcolor: (theme) => (ours ? alpha(theme.palette.primary.main, m.kind === 'human' ? 0.18 : 0.08) : theme.palette.action.hover),
          borderColor: ours ? 'primary.light' : 'divider',
        }}
      >
        <Typography variant="caption" color="text.secondary">
          {author(m)} · {new Date(m.createdAt).toLocaleString()}
        </Typography>
        <Typography sx={{ whiteSpace: 'pre-wrap' }}>{m.text}</Typography>
      </Paper>
      {m.turn && <TurnLine turn={m.turn} />}
    </Box>
  );
}

function TurnLine({ turn }: { turn: InlineTurn }) {
  const silenced = turn.outcomeCodes.includes('handed-off');
  return (
    <Stack direction="row" spacing={0.5} data-testid="inline-turn" sx={{ mt: 0.5, alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, maxWidth: '100%' }}>
      <Typography variant="caption" color="text.secondary">
        Turn · {silenced ? 'agent silent (with a person)' : `${turn.provider} / ${turn.model}`} · {turn.totalMs} ms
      </Typography>
      {turn.failure && <Chip size="small" color={turn.failure === 'failed' ? 'error' : 'warning'} label={turn.failure} data-testid="turn-failure" />}
      {turn.outcomeCodes
        .filter((c) => c !== 'handed-off')
        .slice(0, 4)
        .map((c) => (
          <Chip key={c} size="small" variant="outlined" label={c} />
        ))}
    </Stack>
  );
}

function NoteBubble({ note }: { note: Note }) {
  return (
    <Paper variant="outlined" data-testid="conversation-note" sx={{ px: 2, py: 1, bgcolor: 'warning.light', borderStyle: 'dashed', alignSelf: 'center', maxWidth: '90%', overflowWrap: 'anywhere' }}>
      <Typography variant="caption">
        Internal note · {note.author ?? 'someone'} · {new Date(note.createdAt).toLocaleString()} · not sent to the customer
      </Typography>
      <Typography sx={{ whiteSpace: 'pre-wrap' }}>{note.text}</Typography>
    </Paper>
  );
}
