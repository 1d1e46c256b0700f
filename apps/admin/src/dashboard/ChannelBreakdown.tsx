import { Box, Card, CardContent, Typography } from '@mui/material';
import type { ChannelFigures } from './live-usage';

const n = (v: number | null) => (v === null ? '—' : v.toLocaleString());

/**
 * Turns per channel over the range. Rows are stacked label/value pairs rather than a wide
 * table, so the card fits a 390 px screen.
 */
export function ChannelBreakdown({ rows }: { rows: ChannelFigures[] }) {
  return (
    <Card data-testid="channel-breakdown">
      <CardContent>
        <Typography variant="subtitle1">By channel (exact, from the turns)</Typography>
        {rows.length === 0 ? (
          <Typography color="text.secondary">No turns on any channel in this range.</Typography>
        ) : (
          <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(min(220px, 100%), 1fr))', gap: 1.5, mt: 1 }}>
            {rows.map((c) => (
              <Box key={c.channelId} data-testid={`channel-row-${c.channelName}`} sx={{ border: 1, borderColor: 'divider', borderRadius: 1, p: 1.5, minWidth: 0 }}>
                <Typography variant="body1" sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>
                  {c.channelName} <Typography component="span" variant="caption" color="text.secondary">({c.kind})</Typography>
                </Typography>
                <Typography variant="body2">
                  {n(c.turns)} turns · {n(c.failedTurns)} failed · {n(c.llmCalls)} LLM calls
                </Typography>
                <Typography variant="body2">
                  {n(c.inputTokens)} tokens in · {n(c.outputTokens)} out
                </Typography>
                <Typography variant="body2">
                  p50 {n(c.p50)} ms · p95 {n(c.p95)} ms
                </Typography>
              </Box>
            ))}
          </Box>
        )}
      </CardContent>
    </Card>
  );
}
