import { Box, Card, CardContent, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Title, useDataProvider } from 'react-admin';
import type { AdminStats, ConsoleDataProvider } from '../api/data-provider';

const TILES: { key: keyof AdminStats; label: string }[] = [
  { key: 'sessions', label: 'Sessions' },
  { key: 'activeSessions', label: 'Active sessions' },
  { key: 'messages', label: 'Messages' },
  { key: 'queuedMessages', label: 'Waiting for a reply' },
  { key: 'turns', label: 'Turns' },
  { key: 'llmCalls', label: 'LLM calls' },
];

/** Headline counts for the user's tenant (every tenant, for platform admins), from /v1/admin/stats. */
export function Dashboard() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, error, isPending } = useQuery({ queryKey: ['stats'], queryFn: () => dataProvider.getStats() });

  return (
    <Box sx={{ p: 2 }}>
      <Title title="Dashboard" />
      {error ? <Typography color="error">Could not load the numbers: {error.message}</Typography> : null}
      <Box sx={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(180px, 1fr))', gap: 2 }}>
        {TILES.map(({ key, label }) => (
          <Card key={key} data-testid={`stat-${key}`}>
            <CardContent>
              <Typography color="text.secondary" variant="body2">
                {label}
              </Typography>
              <Typography variant="h4">{isPending ? '…' : data ? data[key].toLocaleString() : '—'}</Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
    </Box>
  );
}
