import SendIcon from '@mui/icons-material/Send';
import { Alert, Box, Button, Card, CardContent, CircularProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { Title, useDataProvider, useGetList, usePermissions } from 'react-admin';
import { messageOf } from '../api/api-fetch';
import { canWrite } from '../api/roles';
import { forgetPlaygroundKey, PlaygroundKeyRejected, playgroundKey, postMessage } from './playground-channel';
import { PlaygroundTurns } from './PlaygroundTurns';

interface Line {
  from: 'customer' | 'agent' | 'system';
  text: string;
}

const newSessionKey = () => `playground-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

/** Chat with an agent's published version through the real API, queue and worker. */
export function Playground() {
  const { permissions } = usePermissions();
  const dataProvider = useDataProvider();
  const agents = useGetList<{ id: string; tenantId: string; name: string; publishedVersion: number | null }>('agents', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  const [agentId, setAgentId] = useState('');
  const [sessionKey, setSessionKey] = useState(newSessionKey);
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [lines, setLines] = useState<Line[]>([]);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [turnsVersion, setTurnsVersion] = useState(0);
  const agent = agents.data?.find((a) => a.id === agentId);

  const reset = (id = agentId) => {
    setAgentId(id);
    setSessionKey(newSessionKey());
    setSessionId(null);
    setLines([]);
  };

  const send = async (event: FormEvent) => {
    event.preventDefault();
    if (!agent || !text.trim()) return;
    const message = text.trim();
    setText('');
    setBusy(true);
    setLines((l) => [...l, { from: 'customer', text: message }]);
    try {
      let answer;
      try {
        answer = await postMessage((await playgroundKey(dataProvider, agent)).key, sessionKey, message);
      } catch (err) {
        if (!(err instanceof PlaygroundKeyRejected)) throw err;
        // The stored key was revoked or its channel deleted: make a new one and retry once.
        forgetPlaygroundKey(agentId);
        answer = await postMessage((await playgroundKey(dataProvider, agent)).key, sessionKey, message);
      }
      setSessionId(answer.sessionId);
      const replies = answer.replies ?? [];
      setLines((l) => [
        ...l,
        ...(replies.length
          ? replies.map((r) => ({ from: 'agent' as const, text: r.text }))
          : [{ from: 'system' as const, text: answer.status === 'queued' ? 'No reply within 15 s: is a worker running?' : `No reply (${answer.status}).` }]),
      ]);
    } catch (err) {
      setLines((l) => [...l, { from: 'system', text: `Could not send: ${messageOf(err)}` }]);
    } finally {
      setBusy(false);
      setTurnsVersion((v) => v + 1);
    }
  };

  if (permissions !== undefined && !canWrite(permissions)) {
    return (
      <Box sx={{ p: 2 }}>
        <Title title="Playground" />
        <Alert severity="info">The playground creates a channel and a key for the agent: it needs an owner or admin.</Alert>
      </Box>
    );
  }

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Playground" />
      <Card>
        <CardContent>
          <Stack direction="row" spacing={2} alignItems="center" sx={{ mb: 2 }}>
            <TextField select label="Agent" value={agentId} onChange={(e) => reset(e.target.value)} sx={{ minWidth: 320 }} size="small">
              {(agents.data ?? []).map((a) => (
                <MenuItem key={a.id} value={a.id}>
                  {a.name} {a.publishedVersion ? `(v${a.publishedVersion})` : '(not published)'}
                </MenuItem>
              ))}
            </TextField>
            <Button onClick={() => reset()} disabled={!agentId}>
              New conversation
            </Button>
          </Stack>
          {agent && !agent.publishedVersion && <Alert severity="warning">This agent has no published version yet: publish it first.</Alert>}
          <Stack spacing={1} sx={{ minHeight: 160, my: 2 }} data-testid="playground-chat">
            {lines.length === 0 && <Typography color="text.secondary">Pick an agent and write as a customer would. Messages go through the real API, queue and worker.</Typography>}
            {lines.map((line, i) => (
              <Box key={i} sx={{ display: 'flex', justifyContent: line.from === 'customer' ? 'flex-start' : 'flex-end' }}>
                <Paper
                  variant="outlined"
                  data-testid={`playground-${line.from}`}
                  sx={{ px: 2, py: 1, maxWidth: '70%', bgcolor: line.from === 'system' ? 'warning.light' : line.from === 'agent' ? 'primary.50' : 'action.hover' }}
                >
                  <Typography sx={{ whiteSpace: 'pre-wrap' }}>{line.text}</Typography>
                </Paper>
              </Box>
            ))}
          </Stack>
          <Stack component="form" direction="row" spacing={1} onSubmit={send}>
            <TextField
              label="Message"
              value={text}
              onChange={(e) => setText(e.target.value)}
              fullWidth
              size="small"
              disabled={!agentId || busy}
              inputProps={{ 'aria-label': 'Message' }}
            />
            <Button type="submit" variant="contained" disabled={!agentId || busy || !text.trim()} startIcon={busy ? <CircularProgress size={16} /> : <SendIcon />}>
              Send
            </Button>
          </Stack>
          {sessionId && (
            <Box sx={{ mt: 3 }}>
              <Typography variant="h6">Turns of this conversation</Typography>
              <PlaygroundTurns sessionId={sessionId} refreshKey={turnsVersion} />
            </Box>
          )}
        </CardContent>
      </Card>
    </Box>
  );
}
