import { useQuery } from '@tanstack/react-query';
import { useRecordContext } from 'react-admin';
import type { AgentRecord } from '../agents/agent-config';
import { adminFetch } from '../api/api-fetch';
import { namesFromFlowSchema, type RegisteredNames } from './registered-names';

const NONE: RegisteredNames = { actions: [], conditions: [] };

/**
 * The registered action and condition names, from the agent's flow schema. Empty while loading,
 * on error, or when the API lists none: the inputs then take typed names, and publishing
 * refuses an unknown one at its input.
 */
export function useRegisteredNames(): RegisteredNames {
  const record = useRecordContext<AgentRecord>();
  const { data } = useQuery({
    queryKey: ['flow-schema', record?.id],
    queryFn: () => adminFetch<unknown>('/flow-schema', { query: { agentId: record?.id } }),
    enabled: Boolean(record?.id),
    staleTime: 60_000,
    select: namesFromFlowSchema,
  });
  return data ?? NONE;
}
