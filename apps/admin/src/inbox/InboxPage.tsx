import { Alert, Badge, Box, Card, CardActionArea, CardContent, Chip, Stack, Typography } from '@mui/material';
import { Title } from 'react-admin';
import { Link } from 'react-router-dom';
import { messageOf } from '../api/api-fetch';
import { inboxApi, type InboxItem } from './inbox-api';
import { usePolled } from './usePolled';

/**
 * Conversations with a person (handed off by the agent's tool or flow, or taken over), newest
 * activity first, refreshed every few seconds. Cards, not a table: they fit a phone.
 */
export function InboxPage() {
  const { data, error } = usePolled(inboxApi.list);
  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, maxWidth: 900 }} data-testid="inbox">
      <Title title="Inbox" />
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Conversations waiting for a person: the agent handed them off, or someone took them over. The agent stays silent in them until they are
        handed back.
      </Typography>
      {error !== undefined && <Alert severity="error">Could not load the inbox: {messageOf(error)}</Alert>}
      {data?.length === 0 && <Typography color="text.secondary">No conversation is waiting for a person.</Typography>}
      <Stack spacing={1}>
        {data?.map((item) => <InboxCard key={item.id} item={item} />)}
      </Stack>
    </Box>
  );
}

function InboxCard({ item }: { item: InboxItem }) {
  return (
    <Card variant="outlined" data-testid="inbox-item">
      <CardActionArea component={Link} to={`/inbox/${item.id}`}>
        <CardContent sx={{ display: 'flex', gap: 2, alignItems: 'flex-start', minWidth: 0 }}>
          <Badge badgeContent={item.unread} color="error" data-testid="inbox-unread" aria-label={`${item.unread} unread`} sx={{ mt: 1 }}>
            <Box sx={{ width: 8, height: 8, borderRadius: '50%', bgcolor: item.unread ? 'error.main' : 'grey.400' }} />
          </Badge>
          <Box sx={{ minWidth: 0, flex: 1 }}>
            <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5 }}>
              <Typography sx={{ fontWeight: item.unread ? 700 : 500, overflowWrap: 'anywhere' }}>{item.externalKey}</Typography>
              <Chip size="small" label={item.channel.name} />
              <Chip
                size="small"
                color={item.takenOverBy ? 'primary' : 'warning'}
                label={item.takenOverBy ? (item.takenOverByMe ? 'Yours' : `With ${item.takenOverBy}`) : 'Waiting'}
              />
            </Stack>
            {item.lastMessage && (
              <Typography variant="body2" color="text.secondary" noWrap>
                {item.lastMessage.direction === 'inbound' ? 'Customer: ' : 'Reply: '}
                {item.lastMessage.text}
              </Typography>
            )}
            <Typography variant="caption" color="text.secondary">
              {item.agent.name}
              {item.handedOffAt && ` · with a person since ${new Date(item.handedOffAt).toLocaleString()}`}
            </Typography>
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
