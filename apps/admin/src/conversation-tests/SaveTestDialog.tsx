import { Alert, Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import type { ConversationTest, Expectation } from '../playground/playground-api';

/** One customer message of the conversation to save, with what the agent answered to it. */
export interface ConversationTurn {
  message: string;
  /** The agent's replies, joined by newlines ('' when it said nothing). */
  reply: string;
  /** Where the conversation was after the turn, when known (the playground knows; a transcript does not). */
  at: { flow: string; step: string } | null;
}

/** Where the test's conversation comes from (POST /v1/admin/agents/:id/tests `from`). */
export type TestSource = { playgroundId: string } | { sessionId: string };

interface TurnChoice {
  replyContains: boolean;
  text: string;
  atStep: boolean;
  noFailed: boolean;
}

/**
 * Saves a conversation — the playground's, or a real session's transcript — as a conversation
 * test: per customer message, the expectations picked here (the reply contains a text, the flow
 * and step it is at, no failed outcome) and the mode it runs in. More kinds are editable through
 * the tests API.
 */
export function SaveTestDialog({
  agentId,
  from,
  turns,
  onClose,
  onSaved,
}: {
  agentId: string;
  from: TestSource;
  turns: ConversationTurn[];
  onClose: () => void;
  onSaved: (test: ConversationTest) => void;
}) {
  const notify = useNotify();
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'replay' | 'live'>('replay');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [choices, setChoices] = useState<TurnChoice[]>(() => turns.map((t) => ({ replyContains: t.reply.length > 0, text: firstLine(t.reply), atStep: false, noFailed: true })));
  const set = (i: number, patch: Partial<TurnChoice>) => setChoices((c) => c.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const save = async () => {
    setBusy(true);
    setProblem(null);
    const expect: Expectation[][] = turns.map((t, i) => {
      const c = choices[i];
      return [
        ...(c.replyContains && c.text.trim() ? [{ kind: 'reply-contains' as const, text: c.text.trim() }] : []),
        ...(c.atStep && t.at ? [{ kind: 'at-step' as const, flow: t.at.flow, step: t.at.step }] : []),
        ...(c.noFailed ? [{ kind: 'no-failed-outcome' as const }] : []),
      ];
    });
    try {
      const test = await adminFetch<ConversationTest>(`/agents/${agentId}/tests`, { method: 'POST', body: { name: name.trim(), mode, from, expect } });
      notify(`Test “${test.name}” saved`, { type: 'success' });
      onSaved(test);
      onClose();
    } catch (err) {
      setProblem(`Test not saved: ${messageOf(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>Save as test</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          {'sessionId' in from && (
            <Alert severity="info" data-testid="records-live">
              A transcript keeps the replies, not the model calls behind them: saving runs these {turns.length} customer messages once, live, on the version this
              session last ran, and records the model's replies for replay.
            </Alert>
          )}
          <Stack direction="row" spacing={2} useFlexGap flexWrap="wrap">
            <TextField label="Test name" value={name} onChange={(e) => setName(e.target.value)} size="small" autoFocus fullWidth />
            <TextField select label="Runs" value={mode} onChange={(e) => setMode(e.target.value as 'replay' | 'live')} size="small" sx={{ minWidth: 'min(260px, 100%)' }}>
              <MenuItem value="replay">Replay the recorded replies (free)</MenuItem>
              <MenuItem value="live">Live model (costs model calls)</MenuItem>
            </TextField>
          </Stack>
          {turns.map((t, i) => (
            <Stack key={i} spacing={0.5} data-testid={`test-turn-${i}`}>
              <Typography variant="subtitle2">
                {i + 1}. Customer: “{t.message}”
              </Typography>
              <Stack direction="row" spacing={1} alignItems="center">
                <FormControlLabel control={<Checkbox checked={choices[i].replyContains} onChange={(e) => set(i, { replyContains: e.target.checked })} />} label="Reply contains" />
                <TextField size="small" fullWidth value={choices[i].text} onChange={(e) => set(i, { text: e.target.value })} inputProps={{ 'aria-label': `Reply ${i + 1} contains` }} />
              </Stack>
              {t.at && (
                <FormControlLabel control={<Checkbox checked={choices[i].atStep} onChange={(e) => set(i, { atStep: e.target.checked })} />} label={`At ${t.at.flow} › ${t.at.step}`} />
              )}
              <FormControlLabel control={<Checkbox checked={choices[i].noFailed} onChange={(e) => set(i, { noFailed: e.target.checked })} />} label="No failed outcome" />
            </Stack>
          ))}
          {problem && (
            <Alert severity="error" data-testid="save-test-problem">
              {problem}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={busy || !name.trim()}>
          {busy ? 'Saving…' : 'Save test'}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

/** A reply's first line: a multi-message reply would rarely be contained word for word as a whole. */
function firstLine(reply: string): string {
  return reply.split('\n')[0] ?? '';
}
