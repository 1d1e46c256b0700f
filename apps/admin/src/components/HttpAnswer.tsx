import { Chip, Stack, Table, TableBody, TableCell, TableContainer, TableRow, Typography } from '@mui/material';
import { ToolCallResult } from '../turns/ToolCallResult';

export interface HttpAnswerProps {
  status: number;
  headers: Record<string, string>;
  body: string;
  truncated: boolean;
  ms: number;
  /** Said beside the status when it is not 2xx: what such an answer means here. */
  failureNote: string;
  /** Prefix of the data-testids (`<prefix>-response`, `-status`, `-headers`). */
  testId: string;
}

/** What an endpoint answered a worker's call: status, time, response headers and body. */
export function HttpAnswer({ status, headers, body, truncated, ms, failureNote, testId }: HttpAnswerProps) {
  const success = status >= 200 && status < 300;
  return (
    <Stack spacing={1} data-testid={`${testId}-response`}>
      <Stack direction="row" spacing={1} alignItems="center" useFlexGap flexWrap="wrap">
        <Chip data-testid={`${testId}-status`} color={success ? 'success' : 'error'} label={`HTTP ${status}`} />
        <Typography variant="body2" color="text.secondary">
          {ms} ms{success ? '' : ` · ${failureNote}`}
        </Typography>
      </Stack>
      <Typography variant="subtitle2">Response headers</Typography>
      <TableContainer>
        <Table size="small" data-testid={`${testId}-headers`}>
          <TableBody>
            {Object.entries(headers).map(([k, v]) => (
              <TableRow key={k}>
                <TableCell sx={{ fontFamily: 'monospace', width: 240 }}>{k}</TableCell>
                <TableCell sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>{v}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </TableContainer>
      <Typography variant="subtitle2">Body{truncated ? ' (cut short for display)' : ''}</Typography>
      <ToolCallResult text={body} />
    </Stack>
  );
}
