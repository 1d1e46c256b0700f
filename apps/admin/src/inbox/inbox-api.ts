import { adminFetch } from '../api/api-fetch';

// The inbox's API (apps/api/src/admin/inbox), typed as the console reads it.

export interface InboxItem {
  id: string;
  tenantId: string;
  externalKey: string;
  channel: { id: string; name: string; kind: string };
  agent: { id: string; name: string };
  handedOffAt: string | null;
  takenOverBy: string | null;
  takenOverByMe: boolean;
  unread: number;
  lastMessage: { text: string; direction: 'inbound' | 'outbound'; at: string } | null;
}

export interface InlineTurn {
  id: string;
  provider: string;
  model: string;
  failure: 'failed' | 'deferred' | null;
  outcomeCodes: string[];
  totalMs: number;
}

export interface ConversationMessage {
  id: string;
  seq: number;
  direction: 'inbound' | 'outbound';
  status: string;
  text: string;
  kind: string | null;
  turnId: string | null;
  createdAt: string;
  turn: InlineTurn | null;
}

export interface Note {
  id: string;
  text: string;
  author: string | null;
  createdAt: string;
}

export interface Conversation {
  session: {
    id: string;
    tenantId: string;
    externalKey: string;
    status: 'active' | 'handed_off';
    channel: { id: string; name: string; kind: string; hasWebhook: boolean };
    agent: { id: string; name: string };
    handedOffAt: string | null;
    takenOverBy: string | null;
    takenOverByMe: boolean;
    unread: number;
  };
  messages: ConversationMessage[];
  notes: Note[];
  truncated: boolean;
}

export const inboxApi = {
  list: () => adminFetch<InboxItem[]>('/inbox'),
  conversation: (id: string) => adminFetch<Conversation>(`/inbox/${id}`),
  takeOver: (id: string) => adminFetch<unknown>(`/inbox/${id}/take-over`, { method: 'POST' }),
  reply: (id: string, text: string, clientKey: string) => adminFetch<unknown>(`/inbox/${id}/replies`, { method: 'POST', body: { text, clientKey } }),
  note: (id: string, text: string) => adminFetch<Note>(`/inbox/${id}/notes`, { method: 'POST', body: { text } }),
  markRead: (id: string) => adminFetch<unknown>(`/inbox/${id}/read`, { method: 'POST' }),
  handBack: (id: string) => adminFetch<unknown>(`/sessions/${id}/hand-back`, { method: 'POST' }),
};
