import type { DataProvider } from 'react-admin';

// The playground talks to an agent through the real pipeline: a dedicated "Playground" channel
// of that agent and an API key for it, created on first use. The key is shown once by the API,
// so the browser keeps it (per agent) in localStorage; a revoked or deleted one is replaced.

export interface PlaygroundKey {
  channelId: string;
  key: string;
}

const storageKey = (agentId: string) => `switchboard.playground.${agentId}`;

export function forgetPlaygroundKey(agentId: string): void {
  localStorage.removeItem(storageKey(agentId));
}

export async function playgroundKey(dataProvider: DataProvider, agent: { id: string; tenantId: string }): Promise<PlaygroundKey> {
  const agentId = agent.id;
  const stored = localStorage.getItem(storageKey(agentId));
  if (stored) {
    try {
      return JSON.parse(stored) as PlaygroundKey;
    } catch {
      forgetPlaygroundKey(agentId);
    }
  }
  const { data: channel } = await dataProvider.create('channels', { data: { agentId, name: 'Playground', tenantId: agent.tenantId } });
  const { data: apiKey } = await dataProvider.create('api-keys', { data: { channelId: channel.id, name: 'console playground' } });
  const created = { channelId: String(channel.id), key: (apiKey as unknown as { key: string }).key };
  localStorage.setItem(storageKey(agentId), JSON.stringify(created));
  return created;
}

export interface PostAnswer {
  messageId: string;
  sessionId: string;
  status: 'queued' | 'answered' | 'failed';
  replies?: { id: string; text: string }[];
}

export class PlaygroundKeyRejected extends Error {}

/** POST /v1/messages?wait=15 with the channel key, as a real channel would. */
export async function postMessage(key: string, session: string, text: string): Promise<PostAnswer> {
  const res = await fetch('/v1/messages?wait=15', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ session, text }),
  });
  const body = (await res.json().catch(() => ({}))) as PostAnswer & { error?: { message?: string } };
  if (res.status === 401) throw new PlaygroundKeyRejected(body.error?.message ?? 'The playground key was refused.');
  if (!res.ok) throw new Error(body.error?.message ?? `The API answered ${res.status}.`);
  return body;
}
