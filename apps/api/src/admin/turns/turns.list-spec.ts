import type { Prisma } from '@switchboard/db';
import { dateBoundFilter, uuidFilter } from '../list-query/filters';
import { FilterValueError, type ListSpec } from '../list-query/list-query';

/** `{"outcomeCode":"provider-auth"}`: turns whose outcome codes include this one. */
function outcomeCodeFilter(value: unknown): Prisma.TurnWhereInput {
  if (typeof value !== 'string' || !/^[a-z0-9-]{1,64}$/.test(value)) {
    throw new FilterValueError('must be an outcome code such as "provider-auth".');
  }
  return { outcomeCodes: { has: value } };
}

export const turnsListSpec: ListSpec<Prisma.TurnWhereInput> = {
  resource: 'turns',
  sortFields: ['createdAt', 'llmCalls', 'inputTokens', 'outputTokens', 'totalMs', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    sessionId: uuidFilter('sessionId'),
    agentId: uuidFilter('agentId'),
    outcomeCode: outcomeCodeFilter,
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
  },
};
