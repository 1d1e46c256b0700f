import CheckCircleIcon from '@mui/icons-material/CheckCircle';
import RadioButtonUncheckedIcon from '@mui/icons-material/RadioButtonUnchecked';
import { Box, Button, Card, CardContent, LinearProgress, List, ListItem, ListItemIcon, ListItemText, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { usePermissions } from 'react-admin';
import { Link } from 'react-router-dom';
import { adminFetch } from '../api/api-fetch';
import { readPickedTenant } from '../api/tenant-pick';
import { LIVE_REFRESH_MS } from './live-usage';

/** GET /v1/admin/first-steps: each step ticked by the API from the tenant's own rows. */
interface FirstStepsDto {
  tenantId: string;
  done: boolean;
  steps: { id: 'agent' | 'channel' | 'test-message' | 'inbox'; done: boolean; detail: string; channelId?: string; sessionId?: string }[];
}

type Step = FirstStepsDto['steps'][number];

/** Each step's words and where in the console it is done. */
const STEPS: Record<Step['id'], { title: string; action: string; to: (s: Step) => string }> = {
  agent: { title: 'Create or pick an agent, and publish it', action: 'Create an agent', to: () => '/agents/create' },
  channel: { title: 'Connect a channel to it', action: 'Add a channel', to: () => '/channels/create' },
  'test-message': {
    title: 'Send a test message',
    action: 'Open the channel',
    to: (s) => (s.channelId ? `/channels/${s.channelId}/show` : '/channels'),
  },
  inbox: { title: 'See it answered in the inbox', action: 'Open conversations', to: (s) => (s.sessionId ? `/sessions/${s.sessionId}/show` : '/sessions') },
};

/**
 * A new tenant's checklist at the top of the dashboard, until every step is done. A platform
 * admin sees it only for the tenant picked in the app bar (the checklist is of one tenant).
 */
export function FirstSteps() {
  const { permissions } = usePermissions<string>();
  const applies = permissions !== undefined && (permissions !== 'platform_admin' || readPickedTenant() !== undefined);
  const steps = useQuery({
    queryKey: ['first-steps', readPickedTenant()],
    queryFn: () => adminFetch<FirstStepsDto>('/first-steps'),
    enabled: applies,
    refetchInterval: (q) => (q.state.data?.done ? false : LIVE_REFRESH_MS),
  });
  if (!applies || !steps.data || steps.data.done) return null;
  const doneCount = steps.data.steps.filter((s) => s.done).length;
  // The first open step is the one to do next: only its button is prominent.
  const next = steps.data.steps.find((s) => !s.done)?.id;
  return (
    <Card data-testid="first-steps" variant="outlined">
      <CardContent>
        <Typography variant="h6">First steps</Typography>
        <Typography variant="body2" color="text.secondary">
          {doneCount} of {steps.data.steps.length} done. Each step ticks itself when the console sees it happen.
        </Typography>
        <LinearProgress variant="determinate" value={(doneCount / steps.data.steps.length) * 100} sx={{ my: 1 }} aria-label="First steps done" />
        <List dense disablePadding>
          {steps.data.steps.map((s) => (
            <ListItem key={s.id} data-testid={`first-step-${s.id}`} data-done={s.done} disableGutters sx={{ flexWrap: 'wrap', gap: 1 }}>
              <ListItemIcon sx={{ minWidth: 36 }}>{s.done ? <CheckCircleIcon color="success" titleAccess="done" /> : <RadioButtonUncheckedIcon titleAccess="to do" />}</ListItemIcon>
              <ListItemText primary={STEPS[s.id].title} secondary={s.detail} sx={{ minWidth: 0, flex: '1 1 200px' }} />
              <Box>
                <Button component={Link} to={STEPS[s.id].to(s)} size="small" variant={s.id === next ? 'contained' : 'text'}>
                  {STEPS[s.id].action}
                </Button>
              </Box>
            </ListItem>
          ))}
        </List>
      </CardContent>
    </Card>
  );
}
