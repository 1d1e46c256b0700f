import { Alert, Stack } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { formatMicros } from '../prices/money';
import { readUser } from '../api/session-store';
import { readPickedTenant } from '../api/tenant-pick';
import { readQuota, type AgentBudget, type QuotaState } from './cost-data';

// The budget notices (docs/cost.md): at 80% of a month's money budget a warning, at 100% the
// refusal; the tenant's budget and each agent's own, from GET /v1/admin/usage/quota.

/**
 * The quota of one tenant: the user's own, or for a platform admin the one named (an agent's) or
 * picked in the app bar. A platform admin looking at every tenant has none to read: asking
 * anyway was refused (tenant-required) and retried with the app bar's spinner on for seconds.
 */
function useQuota(tenantId?: string) {
  const platformAdmin = readUser()?.role === 'platform_admin';
  const target = platformAdmin ? (tenantId ?? readPickedTenant()) : undefined;
  return useQuery({
    queryKey: ['usage-quota', target ?? 'own'],
    queryFn: () => readQuota(target),
    enabled: !platformAdmin || target !== undefined,
  });
}

function TenantNotice({ q }: { q: QuotaState }) {
  if (q.cost.quota === null) return null;
  const spent = `${formatMicros(q.cost.used)} of ${formatMicros(q.cost.quota)}`;
  if (q.exceeded === 'cost') {
    return (
      <Alert severity="error" data-testid="budget-notice">
        The monthly budget is spent ({spent}): new turns are refused with the fallback message until {q.resetsAt.slice(0, 10)}.
      </Alert>
    );
  }
  if (!q.budgetWarning) return null;
  return (
    <Alert severity="warning" data-testid="budget-notice">
      80% of the monthly budget is spent ({spent}); at 100% new turns are refused.
    </Alert>
  );
}

function AgentNotice({ a, resetsAt }: { a: AgentBudget; resetsAt: string }) {
  const spent = `${formatMicros(a.used)} of ${formatMicros(a.quota)}`;
  if (a.exceeded) {
    return (
      <Alert severity="error" data-testid="agent-budget-notice">
        Agent “{a.name}” has spent its monthly budget ({spent}): its new turns get the fallback message until {resetsAt.slice(0, 10)}.
      </Alert>
    );
  }
  if (!a.warning) return null;
  return (
    <Alert severity="warning" data-testid="agent-budget-notice">
      Agent “{a.name}” has spent 80% of its monthly budget ({spent}); at 100% its new turns are refused.
    </Alert>
  );
}

/** The dashboard's notices: the tenant's budget, then every agent at 80% of its own or more. */
export function BudgetNotices() {
  const q = useQuota().data;
  if (!q) return null;
  return (
    <Stack spacing={1}>
      <TenantNotice q={q} />
      {(q.agents ?? []).map((a) => (
        <AgentNotice key={a.agentId} a={a} resetsAt={q.resetsAt} />
      ))}
    </Stack>
  );
}

/** The agent editor's notice for that agent's own budget. */
export function AgentBudgetNotice({ agentId, tenantId }: { agentId: string; tenantId: string }) {
  const q = useQuota(tenantId).data;
  const a = q?.agents?.find((x) => x.agentId === agentId);
  return q && a ? <AgentNotice a={a} resetsAt={q.resetsAt} /> : null;
}
