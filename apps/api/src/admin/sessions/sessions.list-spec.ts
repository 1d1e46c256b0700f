import type { Prisma } from '@switchboard/db';
import { dateBoundFilter, enumFilter, textContainsFilter, textEqualsFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';

export const sessionsListSpec: ListSpec<Prisma.SessionWhereInput> = {
  resource: 'sessions',
  sortFields: ['createdAt', 'updatedAt', 'lastMessageAt', 'externalKey', 'status', 'id'],
  defaultSort: ['createdAt', 'desc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    channelId: uuidFilter('channelId'),
    agentId: uuidFilter('agentId'),
    status: enumFilter('status', ['active', 'handed_off'] as const),
    externalKey: textEqualsFilter('externalKey'),
    q: textContainsFilter('externalKey'),
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
  },
};
