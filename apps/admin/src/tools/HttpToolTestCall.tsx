import { Alert, Box, Button, Card, CardContent, TextField, Typography } from '@mui/material';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useRecordContext } from 'react-admin';
import { adminFetch, errorBodyOf, messageOf } from '../api/api-fetch';
import { HttpAnswer } from '../components/HttpAnswer';

type TestAnswer =
  | { ok: true; toolId: string; status: number; headers: Record<string, string>; body: string; truncated: boolean; ms: number }
  | { ok: false; toolId: string; error: { code: string; message: string }; ms: number };

/** `{}` with an empty property per schema property, so the user sees what the tool takes. */
function sampleArguments(parameters: unknown): string {
  const props = (parameters as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  return JSON.stringify(Object.fromEntries(Object.keys(props).map((k) => [k, ''])), null, 2);
}

function parseArguments(text: string): { value?: Record<string, unknown>; error?: string } {
  try {
    const value = JSON.parse(text || '{}') as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return { error: 'The arguments must be a JSON object, e.g. { "city": "Curitiba" }.' };
    return { value: value as Record<string, unknown> };
  } catch (err) {
    return { error: `Not valid JSON: ${(err as Error).message}` };
  }
}

function Answer({ answer }: { answer: TestAnswer }) {
  if (!answer.ok) {
    return (
      <Alert severity="warning" data-testid="test-call-error">
        <strong>{answer.error.code}</strong>: {answer.error.message} ({answer.ms} ms)
      </Alert>
    );
  }
  return <HttpAnswer {...answer} failureNote="the model would read this as a tool error" testId="test-call" />;
}

/**
 * "Test call" on an HTTP tool's edit page: a worker calls the endpoint with the sample arguments,
 * the stored (saved) definition and its secret headers, through the same SSRF guard as a turn.
 */
export function HttpToolTestCall() {
  const record = useRecordContext<{ id: string; parameters?: unknown }>();
  const [text, setText] = useState<string | undefined>(undefined);
  const [inputError, setInputError] = useState<string>();
  const call = useMutation({
    mutationFn: (args: Record<string, unknown>) => adminFetch<TestAnswer>(`/http-tools/${record!.id}/test`, { method: 'POST', body: { arguments: args } }),
  });
  if (!record) return null;
  const value = text ?? sampleArguments(record.parameters);

  const run = () => {
    const parsed = parseArguments(value);
    setInputError(parsed.error);
    if (parsed.value) call.mutate(parsed.value);
  };
  const apiError = call.error ? errorBodyOf(call.error) : undefined;

  return (
    <Card variant="outlined" sx={{ m: 2 }} data-testid="http-tool-test-call">
      <CardContent>
        <Typography variant="h6">Test call</Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Calls the saved tool from a worker, with its secret headers, as a turn would. Save your changes first.
        </Typography>
        <TextField
          label="Sample arguments (JSON)"
          value={value}
          onChange={(e) => setText(e.target.value)}
          error={Boolean(inputError)}
          helperText={inputError ?? 'Checked against the tool’s parameters before anything is called'}
          multiline
          minRows={3}
          fullWidth
          slotProps={{ htmlInput: { style: { fontFamily: 'monospace' } } }}
        />
        <Box sx={{ my: 1 }}>
          <Button variant="contained" onClick={run} disabled={call.isPending}>
            {call.isPending ? 'Calling…' : 'Test call'}
          </Button>
        </Box>
        {call.error ? (
          <Alert severity="error" data-testid="test-call-refused">
            {apiError?.code ? <strong>{apiError.code}: </strong> : null}
            {messageOf(call.error)}
          </Alert>
        ) : null}
        {call.data && !call.isPending ? <Answer answer={call.data} /> : null}
      </CardContent>
    </Card>
  );
}
