import { Alert, Button, Chip, MenuItem, Stack, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, TextField, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNotify } from 'react-admin';
import { adminFetch, messageOf } from '../api/api-fetch';
import type { ConversationTest, TestRunResult } from '../playground/playground-api';
import { TestResultView } from './TestResults';

/**
 * The agent's conversation tests: pass/fail of the last run per test and per expectation, and a
 * reply that changed since the last passing run. Run one or all against the saved draft.
 * `highlight` picks out a test just saved (from the playground or a session's transcript).
 */
export function AgentTests({ agentId, highlight }: { agentId: string; highlight?: string | null }) {
  const notify = useNotify();
  const queryClient = useQueryClient();
  const tests = useQuery({ queryKey: ['agent-tests', agentId], queryFn: () => adminFetch<ConversationTest[]>(`/agents/${agentId}/tests`) });
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['agent-tests', agentId] });
  const highlighted = useRef<HTMLTableRowElement | null>(null);
  const shown = tests.data?.some((t) => t.id === highlight);
  useEffect(() => {
    if (shown) highlighted.current?.scrollIntoView({ block: 'center' });
  }, [shown]);

  const run = async (testId?: string) => {
    setBusy(testId ?? 'all');
    try {
      const answer = await adminFetch<{ passed: boolean; results: TestRunResult[] }>(`/agents/${agentId}/tests${testId ? `/${testId}` : ''}/run`, { method: 'POST', body: { target: 'draft' } });
      const failed = answer.results.filter((r) => !r.passed).length;
      const total = answer.results.length;
      notify(failed ? `${failed} of ${total} ${plural(total)} failed on the draft` : `${total} ${plural(total)} passed on the draft`, { type: failed ? 'warning' : 'success' });
      await refresh();
    } catch (err) {
      notify(`Tests not run: ${messageOf(err)}`, { type: 'error' });
    } finally {
      setBusy(null);
    }
  };

  const setMode = async (test: ConversationTest, mode: ConversationTest['mode']) => {
    try {
      await adminFetch(`/agents/${agentId}/tests/${test.id}`, { method: 'PUT', body: { mode } });
      notify(mode === 'live' ? `Test “${test.name}” now runs on the live model` : `Test “${test.name}” now replays its recorded replies`);
      await refresh();
    } catch (err) {
      notify(`Mode not changed: ${messageOf(err)}`, { type: 'error' });
    }
  };

  const remove = async (test: ConversationTest) => {
    if (!window.confirm(`Delete the test “${test.name}”?`)) return;
    try {
      await adminFetch(`/agents/${agentId}/tests/${test.id}`, { method: 'DELETE' });
      notify(`Test “${test.name}” deleted`);
      await refresh();
    } catch (err) {
      notify(`Test not deleted: ${messageOf(err)}`, { type: 'error' });
    }
  };

  if (tests.isPending) return <Typography color="text.secondary">Loading tests…</Typography>;
  if (tests.error) return <Alert severity="error">Could not load the tests: {tests.error.message}</Alert>;
  if (!tests.data.length) {
    return (
      <Typography color="text.secondary" data-testid="no-tests">
        No conversation tests yet. Talk to the draft in the Playground tab and choose “Save as test”; publishing then replays every test first.
      </Typography>
    );
  }
  return (
    <Stack spacing={2} sx={{ width: '100%' }}>
      <Stack direction="row" spacing={2} alignItems="center" useFlexGap flexWrap="wrap">
        <Button variant="outlined" onClick={() => run()} disabled={busy !== null}>
          Run all on the draft
        </Button>
        <Typography variant="body2" color="text.secondary">
          Replay tests play back the model replies recorded when they were saved: deterministic, free and offline.
        </Typography>
      </Stack>
      <TableContainer>
        <Table size="small" data-testid="agent-tests">
          <TableHead>
            <TableRow>
              <TableCell>Test</TableCell>
              <TableCell>From</TableCell>
              <TableCell>Mode</TableCell>
              <TableCell>Last run</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {tests.data.map((t) => (
              <TableRow
                key={t.id}
                ref={t.id === highlight ? highlighted : undefined}
                selected={t.id === highlight}
                data-testid={`test-row-${t.name}`}
                data-new={t.id === highlight ? 'true' : undefined}
                sx={{ verticalAlign: 'top' }}
              >
                <TableCell>
                  <Typography variant="subtitle2">
                    {t.name} {t.id === highlight && <Chip size="small" color="primary" label="just saved" />}
                  </Typography>
                  <Typography variant="caption" color="text.secondary">
                    {counted(t.turns.length, 'message')} · {counted(t.turns.reduce((n, x) => n + x.expect.length, 0), 'expectation')}
                  </Typography>
                </TableCell>
                <TableCell>
                  {t.source} {t.recordedVersion ? `(v${t.recordedVersion})` : '(draft)'}
                </TableCell>
                <TableCell>
                  <TextField
                    select
                    size="small"
                    value={t.mode}
                    onChange={(e) => void setMode(t, e.target.value as ConversationTest['mode'])}
                    disabled={busy !== null}
                    inputProps={{ 'aria-label': `Mode of ${t.name}` }}
                  >
                    <MenuItem value="replay">replay</MenuItem>
                    <MenuItem value="live">live</MenuItem>
                  </TextField>
                </TableCell>
                <TableCell sx={{ minWidth: 'min(360px, 100%)' }}>
                  {t.lastRun ? (
                    <Stack spacing={1}>
                      <Chip size="small" color={t.lastRun.passed ? 'success' : 'error'} label={`${t.lastRun.passed ? 'passed' : 'failed'} on ${t.lastRun.target}`} sx={{ alignSelf: 'flex-start' }} />
                      <TestResultView result={t.lastRun} lastPassing={t.lastPassingReplies} />
                    </Stack>
                  ) : (
                    <Typography variant="body2" color="text.secondary">
                      not run yet
                    </Typography>
                  )}
                </TableCell>
                <TableCell>
                  <Stack direction="row" spacing={1}>
                    <Button size="small" onClick={() => run(t.id)} disabled={busy !== null}>
                      Run
                    </Button>
                    <Button size="small" color="error" onClick={() => remove(t)} disabled={busy !== null}>
                      Delete
                    </Button>
                  </Stack>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
    </Stack>
  );
}

const plural = (n: number) => (n === 1 ? 'test' : 'tests');
const counted = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
