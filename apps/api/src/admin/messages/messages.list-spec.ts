import type { Prisma } from '@switchboard/db';
import { dateBoundFilter, enumFilter, textContainsFilter, uuidFilter } from '../list-query/filters';
import type { ListSpec } from '../list-query/list-query';

export const messagesListSpec: ListSpec<Prisma.MessageWhereInput> = {
  resource: 'messages',
  sortFields: ['seq', 'createdAt', 'answeredAt', 'direction', 'status', 'id'],
  // Arrival order: a session's transcript reads top to bottom.
  defaultSort: ['seq', 'asc'],
  tieBreaker: 'id',
  filters: {
    id: uuidFilter('id'),
    tenantId: uuidFilter('tenantId'),
    sessionId: uuidFilter('sessionId'),
    channelId: uuidFilter('channelId'),
    turnId: uuidFilter('turnId'),
    direction: enumFilter('direction', ['inbound', 'outbound'] as const),
    status: enumFilter('status', ['queued', 'answered', 'sent', 'failed'] as const),
    q: textContainsFilter('text'),
    createdAt_gte: dateBoundFilter('createdAt', 'gte'),
    createdAt_lte: dateBoundFilter('createdAt', 'lte'),
  },
};
