import simpleRestProvider from 'ra-data-simple-rest';
import type { CreateParams, DataProvider, RaRecord, UpdateParams } from 'react-admin';
import type { AgentRecord } from '../agents/agent-config';
import { configFromDraft, draftFromConfig, type AgentDraft } from '../agents/agent-form-model';
import { API_URL } from './http-client';
import { scopedHttpClient } from './tenant-pick';

export interface AdminStats {
  sessions: number;
  activeSessions: number;
  messages: number;
  queuedMessages: number;
  turns: number;
  llmCalls: number;
}

const restProvider = simpleRestProvider(API_URL, scopedHttpClient);

// Agents are edited as a form-shaped `draft` beside the stored `config` (see agent-form-model):
// reads add it, writes send only what the API takes: name and config.
const withDraft = <R extends RaRecord>(record: R): R => ('config' in record ? { ...record, draft: draftFromConfig((record as unknown as AgentRecord).config) } : record);

function agentBody(data: Partial<{ name: string; draft: AgentDraft; tenantId: string }>) {
  return {
    ...(data.name !== undefined && { name: data.name }),
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
    const { json } = await scopedHttpClient(`${API_URL}/stats`);
    return json as AdminStats;
  },
} as DataProvider & { getStats(): Promise<AdminStats> };

export type ConsoleDataProvider = typeof dataProvider;
