import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import SendIcon from '@mui/icons-material/Send';
import { Accordion, AccordionDetails, AccordionSummary, Alert, Box, Button, CircularProgress, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { adminFetch, messageOf } from '../api/api-fetch';
import { TurnTraceView } from '../turns/TurnDetails';
import { useOpenAgentTests } from '../conversation-tests/open-agent-tests';
import { SaveTestDialog } from '../conversation-tests/SaveTestDialog';
import { asTurnDetail, type ConversationTest, type PlaygroundAnswer, type PlaygroundTurn, type RunTarget } from './playground-api';

/**
 * Talks to an agent's saved draft, the editor's unsaved changes (when `unsavedConfig` is given)
 * or any published version, through the real engine and tools on a worker. Nothing is published
 * and no channel or key is created; each turn opens to the same trace as a transcript's turn, and
 * the conversation can be saved as a conversation test — then the agent's Tests tab shows it
 * (`onTestSaved` when the caller is that editor, else the editor is opened on it).
 */
export function PlaygroundChat({ agentId, unsavedConfig, onTestSaved }: { agentId: string; unsavedConfig?: () => unknown; onTestSaved?: (test: ConversationTest) => void }) {
  const openTests = useOpenAgentTests();
  const versions = useQuery({
    queryKey: ['agent-versions', agentId],
    queryFn: () => adminFetch<{ version: number }[]>(`/agents/${agentId}/versions`, { query: { range: '[0,99]' } }),
  });
  const [target, setTarget] = useState<RunTarget>(unsavedConfig ? 'unsaved' : 'draft');
  const [playgroundId, setPlaygroundId] = useState<string | null>(null);
  const [turns, setTurns] = useState<PlaygroundTurn[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [saving, setSaving] = useState(false);

  const reset = () => {
    setPlaygroundId(null);
    setTurns([]);
    setProblem(null);
  };

  const send = async () => {
    const message = text.trim();
    if (!message) return;
    setBusy(true);
    setProblem(null);
    try {
      let config: unknown;
      if (target === 'unsaved') config = unsavedConfig?.();
      const answer = await adminFetch<PlaygroundAnswer>(`/agents/${agentId}/playground/turns`, {
        method: 'POST',
        body: { message, target, ...(playgroundId && { playgroundId }), ...(config !== undefined && { config }) },
      });
      setPlaygroundId(answer.playgroundId);
      setTurns((t) => [...t, answer.turn]);
      setText('');
    } catch (err) {
      setProblem(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const targets: { value: RunTarget; label: string }[] = [
    ...(unsavedConfig ? [{ value: 'unsaved' as const, label: 'Draft with unsaved changes' }] : []),
    { value: 'draft', label: 'Saved draft' },
    ...(versions.data ?? []).map((v) => ({ value: v.version, label: `Version ${v.version}` })),
  ];

  return (
    <Stack spacing={2} data-testid="playground">
      <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap">
        <TextField select size="small" label="Runs" value={String(target)} onChange={(e) => setTarget(/^\d+$/.test(e.target.value) ? Number(e.target.value) : (e.target.value as RunTarget))} sx={{ minWidth: 'min(260px, 100%)' }}>
          {targets.map((t) => (
            <MenuItem key={String(t.value)} value={String(t.value)}>
              {t.label}
            </MenuItem>
          ))}
        </TextField>
        <Button onClick={reset} disabled={!turns.length}>
          New conversation
        </Button>
        <Button variant="outlined" onClick={() => setSaving(true)} disabled={!playgroundId || busy}>
          Save as test
        </Button>
      </Stack>
      <Typography variant="body2" color="text.secondary">
        Playground turns run on a worker with the real tools; they create no channel, key or session. Their model calls are not customer usage: the dashboard shows them on a line of their own, and they count toward the monthly quota.
      </Typography>
      <Stack spacing={1} sx={{ minHeight: 120 }} data-testid="playground-chat">
        {turns.length === 0 && <Typography color="text.secondary">Write as a customer would.</Typography>}
        {turns.map((turn) => (
          <Stack key={turn.index} spacing={1}>
            <Box sx={{ display: 'flex', justifyContent: 'flex-start' }}>
              <Paper variant="outlined" data-testid="playground-customer" sx={{ px: 2, py: 1, maxWidth: '70%', bgcolor: 'action.hover' }}>
                <Typography sx={{ whiteSpace: 'pre-wrap' }}>{turn.message}</Typography>
              </Paper>
            </Box>
            {turn.replies.map((r) => (
              <Box key={r.key} sx={{ display: 'flex', justifyContent: 'flex-end' }}>
                <Paper variant="outlined" data-testid="playground-agent" sx={{ px: 2, py: 1, maxWidth: '70%' }}>
                  <Typography sx={{ whiteSpace: 'pre-wrap' }}>{r.text}</Typography>
                </Paper>
              </Box>
            ))}
            {turn.error && <Alert severity="error">{turn.error.message}</Alert>}
            <Accordion disableGutters variant="outlined" data-testid="playground-turn">
              <AccordionSummary expandIcon={<ExpandMoreIcon />}>
                <Typography variant="body2" color="text.secondary" data-testid="turn-llm-calls">
                  Turn {turn.index + 1} · {turn.target === 'unsaved' ? 'unsaved draft' : turn.target} · {turn.llmCalls} LLM calls · {turn.totalMs} ms
                  {turn.at ? ` · at ${turn.at.flow} › ${turn.at.step}` : ''}
                </Typography>
              </AccordionSummary>
              <AccordionDetails>
                <TurnTraceView turn={asTurnDetail(turn)} />
              </AccordionDetails>
            </Accordion>
          </Stack>
        ))}
        {problem && (
          <Alert severity="error" data-testid="playground-problem">
            {problem}
          </Alert>
        )}
      </Stack>
      {/* Not a <form>: in the agent editor this sits inside the agent's form, and Enter must not save the agent. */}
      <Stack direction="row" spacing={1}>
        <TextField
          label="Message"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              void send();
            }
          }}
          fullWidth
          size="small"
          disabled={busy}
          inputProps={{ 'aria-label': 'Message' }}
        />
        <Button variant="contained" onClick={() => void send()} disabled={busy || !text.trim()} startIcon={busy ? <CircularProgress size={16} /> : <SendIcon />}>
          Send
        </Button>
      </Stack>
      {saving && playgroundId && (
        <SaveTestDialog
          agentId={agentId}
          from={{ playgroundId }}
          turns={turns.map((t) => ({ message: t.message, reply: t.replies.map((r) => r.text).join('\n'), at: t.at }))}
          onClose={() => setSaving(false)}
          onSaved={(test) => (onTestSaved ? onTestSaved(test) : openTests(agentId, test.id))}
        />
      )}
    </Stack>
  );
}
