import { agentConfigSchema, type AgentConfig } from '@switchboard/agent-config';
import type { Prisma } from '@switchboard/db';
import { z } from 'zod';
import { dateBoundFilter, textContainsFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';

export const agentSelect = {
  id: true,
  tenantId: true,
  name: true,
  config: true,
  publishedVersion: true,
  createdAt: true,
  updatedAt: true,
} as const;

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
});
export type CreateAgentBody = z.infer<typeof createAgentBody>;

// react-admin's update sends the whole record back (id, publishedVersion, dates): those keys
// are read-only and dropped, the editable ones are checked.
export const updateAgentBody = z.object({ name: name.optional(), config: agentConfigSchema.optional() });
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
  },
};

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
