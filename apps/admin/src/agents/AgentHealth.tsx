import { Box, Chip, Stack, Tooltip, Typography } from '@mui/material';
import { Link } from 'react-router-dom';
import { ReferenceField, useGetOne, useRecordContext } from 'react-admin';

/** `GET /v1/admin/agent-health/:id` (docs/admin-api.md, "Agent health"). */
export interface AgentHealthRecord {
  id: string;
  windowMinutes: number;
  turns: number;
  failed: number;
  deferred: number;
  failingShare: number;
  status: 'idle' | 'ok' | 'degraded' | 'failing';
  lastFailure: { turnId: string; sessionId: string; status: 'failed' | 'deferred'; code: string | null; message: string | null; at: string } | null;
}

// Health is computed from turns on each read; re-reading every 15 s puts a failing agent on
// screen within a minute without a reload.
const REFRESH_MS = 15_000;

const percent = (share: number) => `${Math.round(share * 100)}%`;

function chipOf(h: AgentHealthRecord): { label: string; color: 'default' | 'success' | 'warning' | 'error' } {
  switch (h.status) {
    case 'idle':
      return { label: 'no turns in the last hour', color: 'default' };
    case 'ok':
      return { label: `healthy · ${h.turns} turns`, color: 'success' };
    case 'degraded':
    case 'failing': {
      const parts = [h.failed && `${h.failed} failed`, h.deferred && `${h.deferred} deferred`].filter(Boolean).join(', ');
      return { label: `${percent(h.failingShare)} failing · ${parts} of ${h.turns}`, color: h.status === 'failing' ? 'error' : 'warning' };
    }
  }
}

const when = (iso: string) => new Date(iso).toLocaleString();

/** The chip and the last failure's code and time; the failure's text is in the tooltip (and in full on the agent page). */
export function HealthSummary({ health, full = false }: { health: AgentHealthRecord; full?: boolean }) {
  const chip = chipOf(health);
  const last = health.lastFailure;
  return (
    <Stack spacing={0.5} data-testid="agent-health" data-status={health.status}>
      <Box>
        <Chip size="small" color={chip.color} label={chip.label} />
      </Box>
      {last && (
        <Tooltip title={last.message ?? ''}>
          <Typography variant="caption" color="text.secondary" component="div">
            Last {last.status === 'failed' ? 'failure' : 'deferral'}: <strong>{last.code ?? 'unknown'}</strong> at {when(last.at)}
            {full && last.message && <> — {last.message}</>}{' '}
            <Link to={`/sessions/${last.sessionId}/show`} onClick={(e) => e.stopPropagation()}>
              transcript
            </Link>
          </Typography>
        </Tooltip>
      )}
    </Stack>
  );
}

function HealthFromContext() {
  const health = useRecordContext<AgentHealthRecord>();
  return health ? <HealthSummary health={health} /> : null;
}

/** A list column: the health of each agent on the page, read in one getMany. */
export function AgentHealthField(_: { label?: string; sortable?: boolean }) {
  return (
    <ReferenceField source="id" reference="agent-health" link={false} queryOptions={{ refetchInterval: REFRESH_MS }}>
      <HealthFromContext />
    </ReferenceField>
  );
}

/** The agent page's health line: share failed or deferred in the last hour and the last failure in full. */
export function AgentHealthPanel() {
  const agentId = useRecordContext()?.id;
  const { data } = useGetOne<AgentHealthRecord>('agent-health', { id: String(agentId ?? '') }, { enabled: agentId !== undefined, refetchInterval: REFRESH_MS });
  if (!data) return null;
  return (
    <Box sx={{ px: 2, pt: 2 }} data-testid="agent-health-panel">
      <Typography variant="subtitle2" gutterBottom>
        Health (last {data.windowMinutes} min)
      </Typography>
      <HealthSummary health={data} full />
    </Box>
  );
}
