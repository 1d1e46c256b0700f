import { Alert, Chip, Stack, Typography } from '@mui/material';
import type { TestRunResult } from '../playground/playground-api';
import { ReplyDiff } from './ReplyDiff';

/**
 * One test run: pass/fail per turn and per expectation, the replay divergence when there was one,
 * and where a reply differs from the last passing run's, both replies.
 */
export function TestResultView({ result, lastPassing }: { result: TestRunResult; lastPassing?: string[][] | null }) {
  return (
    <Stack spacing={1} data-testid={`test-result-${result.name}`}>
      {result.error && <Alert severity="error">{result.error.message}</Alert>}
      {result.diverged && (
        <Alert severity="warning" data-testid="test-diverged">
          The replay diverged at {result.diverged.message}
        </Alert>
      )}
      {result.turns.map((t) => {
        const before = lastPassing?.[t.index]?.join('\n');
        const now = t.replies.join('\n');
        return (
          <Stack key={t.index} spacing={0.5} sx={{ borderLeft: 3, borderColor: t.passed ? 'success.light' : 'error.light', pl: 1.5 }}>
            <Typography variant="body2">
              <b>{t.index + 1}.</b> “{t.message}” → {now ? `“${now}”` : 'no reply'}
            </Typography>
            {before !== undefined && before !== now && <ReplyDiff before={before} now={now} />}
            {t.error && (
              <Typography variant="body2" color="error">
                {t.error.message}
              </Typography>
            )}
            <Stack direction="row" spacing={0.5} useFlexGap flexWrap="wrap">
              {t.expectations.map((e, i) => (
                <Chip
                  key={i}
                  size="small"
                  color={e.passed ? 'success' : 'error'}
                  variant={e.passed ? 'outlined' : 'filled'}
                  label={`${e.passed ? '✓' : '✗'} ${e.name}${e.passed ? '' : ` — ${e.detail}`}`}
                  data-testid={e.passed ? 'expectation-passed' : 'expectation-failed'}
                />
              ))}
            </Stack>
          </Stack>
        );
      })}
    </Stack>
  );
}

/** The tests a publish ran, failing ones first. */
export function PublishTestResults({ results }: { results: TestRunResult[] }) {
  const sorted = [...results].sort((a, b) => Number(a.passed) - Number(b.passed));
  return (
    <Stack spacing={2} data-testid="publish-test-results">
      {sorted.map((r) => (
        <Stack key={r.testId} spacing={0.5}>
          <Typography variant="subtitle2">
            {r.passed ? '✓' : '✗'} {r.name}
          </Typography>
          {!r.passed && <TestResultView result={r} />}
        </Stack>
      ))}
    </Stack>
  );
}
