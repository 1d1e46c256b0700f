import simpleRestProvider from 'ra-data-simple-rest';
import { API_URL, httpClient } from './http-client';

export interface AdminStats {
  sessions: number;
  activeSessions: number;
  messages: number;
  queuedMessages: number;
  turns: number;
  llmCalls: number;
}

const restProvider = simpleRestProvider(API_URL, httpClient);

/** The simple-REST provider for resources, plus the console's own read of dashboard numbers. */
export const dataProvider = {
  ...restProvider,
  async getStats(): Promise<AdminStats> {
    const { json } = await httpClient(`${API_URL}/stats`);
    return json as AdminStats;
  },
};

export type ConsoleDataProvider = typeof dataProvider;
