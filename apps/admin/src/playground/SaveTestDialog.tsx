import { Button, Checkbox, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import { useNotify } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import type { ConversationTest, Expectation, PlaygroundTurn } from './playground-api';

interface TurnChoice {
  replyContains: boolean;
  text: string;
  atStep: boolean;
  noFailed: boolean;
}

/**
 * Saves the playground conversation as a conversation test: per customer message, the
 * expectations picked here (the reply contains a text, the flow and step it is at, no failed
 * outcome). More kinds are editable on the Tests tab's API.
 */
export function SaveTestDialog({ agentId, playgroundId, turns, onClose, onSaved }: { agentId: string; playgroundId: string; turns: PlaygroundTurn[]; onClose: () => void; onSaved?: () => void }) {
  const notify = useNotify();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [choices, setChoices] = useState<TurnChoice[]>(() =>
    turns.map((t) => ({ replyContains: t.replies.length > 0, text: t.replies[0]?.text ?? '', atStep: false, noFailed: true })),
  );
  const set = (i: number, patch: Partial<TurnChoice>) => setChoices((c) => c.map((x, j) => (j === i ? { ...x, ...patch } : x)));

  const save = async () => {
    setBusy(true);
    const expect: Expectation[][] = turns.map((t, i) => {
      const c = choices[i];
      return [
        ...(c.replyContains && c.text.trim() ? [{ kind: 'reply-contains' as const, text: c.text.trim() }] : []),
        ...(c.atStep && t.at ? [{ kind: 'at-step' as const, flow: t.at.flow, step: t.at.step }] : []),
        ...(c.noFailed ? [{ kind: 'no-failed-outcome' as const }] : []),
      ];
    });
    try {
      const test = await adminFetch<ConversationTest>(`/agents/${agentId}/tests`, { method: 'POST', body: { name: name.trim(), from: { playgroundId }, expect } });
      notify(`Test “${test.name}” saved`, { type: 'success' });
      onSaved?.();
      onClose();
    } catch (err) {
      notify(`Test not saved: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth>
      <DialogTitle>Save as test</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label="Test name" value={name} onChange={(e) => setName(e.target.value)} size="small" autoFocus />
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
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button variant="contained" onClick={save} disabled={busy || !name.trim()}>
          Save test
        </Button>
      </DialogActions>
    </Dialog>
  );
}
