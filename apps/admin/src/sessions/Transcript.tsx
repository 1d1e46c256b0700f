import { alpha, Box, Paper, Stack, Typography } from '@mui/material';
import { useListContext } from 'react-admin';

interface MessageRecord {
  id: string;
  seq: string;
  direction: 'inbound' | 'outbound';
  status: string;
  text: string;
  createdAt: string;
}

/** A session's messages as a chat: the customer on the left, the agent on the right. */
export function Transcript() {
  const { data, isPending, error } = useListContext<MessageRecord>();
  if (isPending) return <Typography color="text.secondary">Loading messages…</Typography>;
  if (error) return <Typography color="error">Could not load the messages: {error.message}</Typography>;
  if (!data?.length) return <Typography color="text.secondary">No messages in this session yet.</Typography>;

  return (
    <Stack spacing={1.5} data-testid="transcript" sx={{ py: 1 }}>
      {data.map((m) => {
        const fromAgent = m.direction === 'outbound';
        return (
          <Box key={m.id} sx={{ display: 'flex', justifyContent: fromAgent ? 'flex-end' : 'flex-start' }}>
            <Paper
              variant="outlined"
              data-testid={`message-${m.direction}`}
              sx={{
                px: 2,
                py: 1,
                maxWidth: '70%',
                bgcolor: (theme) => (fromAgent ? alpha(theme.palette.primary.main, 0.08) : theme.palette.action.hover),
                borderColor: fromAgent ? 'primary.light' : 'divider',
              }}
            >
              <Typography variant="caption" color="text.secondary">
                {fromAgent ? 'Agent' : 'Customer'} · {new Date(m.createdAt).toLocaleString()} · {m.status}
              </Typography>
              <Typography sx={{ whiteSpace: 'pre-wrap' }}>{m.text}</Typography>
            </Paper>
          </Box>
        );
      })}
    </Stack>
  );
}
