import { agentConfigSchema, type AgentConfig } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { z } from 'zod';
import { budgetAmount, budgetOf } from '../common/budget-amount';
import { dateBoundFilter, textContainsFilter, uuidFilter } from '../list-query/filters';
import { FilterValueError, type ListSpec } from '../list-query/list-query';

export const agentSelect = {
  id: true,
  tenantId: true,
  name: true,
  config: true,
  publishedVersion: true,
  archivedAt: true,
  monthlyBudgetMicros: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** An agent as the API shows it: its own monthly budget as USD with six decimals (docs/cost.md), null = none. */
export function agentDto<T extends { monthlyBudgetMicros: bigint | null }>({ monthlyBudgetMicros, ...agent }: T): Omit<T, 'monthlyBudgetMicros'> & { monthlyBudget: string | null } {
  return { ...agent, monthlyBudget: budgetOf(monthlyBudgetMicros) };
}

/** What a new agent's draft holds until it is edited: the offline scripted provider, nothing else. */
export const EMPTY_AGENT_CONFIG: AgentConfig = {
  provider: { kind: 'scripted', model: 'scripted' },
  fields: {},
  flows: [],
  tools: [],
};

const name = z.string().trim().min(1).max(200);

export const createAgentBody = z.strictObject({
  tenantId: z.string().optional(),
  name,
  config: agentConfigSchema.optional(),
  /** The agent's own monthly budget in USD, beside the tenant's (docs/cost.md); null = none. */
  monthlyBudget: budgetAmount,
});
export type CreateAgentBody = z.infer<typeof createAgentBody>;

// react-admin's update sends the whole record back (id, publishedVersion, dates): those keys
// are read-only and dropped, the editable ones are checked.
export const updateAgentBody = z.object({ name: name.optional(), config: agentConfigSchema.optional(), monthlyBudget: budgetAmount });
export type UpdateAgentBody = z.infer<typeof updateAgentBody>;

export const agentsListSpec: ListSpec<Prisma.AgentWhereInput> = {
  resource: 'agents',
  sortFields: ['name', 'createdAt', 'updatedAt', 'publishedVersion', 'id'],
  defaultSort: ['name', 'asc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    q: textContainsFilter('name'),
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
    // Without it the list hides archived agents (see ARCHIVED_HIDDEN); true lists only them.
    archived: (value) => {
      if (typeof value !== 'boolean') throw new FilterValueError('must be true or false.');
      return { archivedAt: value ? { not: null } : null };
    },
  },
};

/** Added to an agent list that names no `archived` filter: archived agents stay out of sight. */
export const ARCHIVED_HIDDEN: Prisma.AgentWhereInput = { archivedAt: null };
/** A list by ids (react-admin's getMany, for references from sessions and turns) shows archived agents too. */
export const showsArchived = (where: Prisma.AgentWhereInput[]) => where.some((w) => 'archivedAt' in w || 'id' in w);

export const versionSelect = {
  id: true,
  tenantId: true,
  agentId: true,
  version: true,
  config: true,
  publishedById: true,
  publishedAt: true,
  note: true,
  testResults: true,
  overrideReason: true,
  restoredFrom: true,
} as const;
