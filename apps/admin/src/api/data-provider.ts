import simpleRestProvider from 'ra-data-simple-rest';
import type { CreateParams, DataProvider, RaRecord, UpdateParams } from 'react-admin';
import type { AgentRecord } from '../agents/agent-config';
import { configFromDraft, draftFromConfig, type AgentDraft } from '../agents/agent-form-model';
import type { paths } from '@switchboard/client';
import { budgetBody } from '../prices/BudgetInput';
import { messageOf } from './api-fetch';
import { API_URL } from './http-client';
import { api } from './switchboard-client';
import { scopedHttpClient } from './tenant-pick';

/** The dashboard's numbers, as GET /v1/admin/stats declares them. */
export type AdminStats = paths['/v1/admin/stats']['get']['responses'][200]['content']['application/json'];

const restProvider = simpleRestProvider(API_URL, scopedHttpClient);

// Agents are edited as a form-shaped `draft` beside the stored `config` (see agent-form-model):
// reads add it, writes send only what the API takes: name, config and the agent's own budget.
const withDraft = <R extends RaRecord>(record: R): R => ('config' in record ? { ...record, draft: draftFromConfig((record as unknown as AgentRecord).config) } : record);

function agentBody(data: Partial<{ name: string; draft: AgentDraft; tenantId: string; monthlyBudget: string | null }>) {
  return {
    ...(data.name !== undefined && { name: data.name }),
    ...(data.monthlyBudget !== undefined && { monthlyBudget: budgetBody(data.monthlyBudget) }),
    ...(data.tenantId && { tenantId: data.tenantId }),
    ...(data.draft !== undefined && { config: configFromDraft(data.draft) }),
  };
}

/** The simple-REST provider for resources, plus the console's own read of dashboard numbers. */
export const dataProvider = {
  ...restProvider,
  async getList(resource, params) {
    const result = await restProvider.getList(resource, params);
    return resource === 'agents' ? { ...result, data: result.data.map(withDraft) } : result;
  },
  async getOne(resource, params) {
    const result = await restProvider.getOne(resource, params);
    return resource === 'agents' ? { data: withDraft(result.data) } : result;
  },
  async update(resource: string, params: UpdateParams) {
    if (resource !== 'agents') return restProvider.update(resource, params);
    const result = await restProvider.update(resource, { ...params, data: agentBody(params.data) });
    return { data: withDraft(result.data) };
  },
  async create(resource: string, params: CreateParams) {
    if (resource !== 'agents') return restProvider.create(resource, params);
    const result = await restProvider.create(resource, { ...params, data: agentBody(params.data) });
    return { data: withDraft(result.data) };
  },
  async getStats(): Promise<AdminStats> {
    const { data, error } = await api.GET('/v1/admin/stats');
    if (error || !data) throw new Error(messageOf({ body: error }));
    return data;
  },
} as DataProvider & { getStats(): Promise<AdminStats> };

export type ConsoleDataProvider = typeof dataProvider;
