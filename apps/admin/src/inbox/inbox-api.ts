import type { DeclaredAnswer, Method, Operation, PathsWith } from '@switchboard/client';
import { adminFetch } from '../api/api-fetch';

// The inbox's API (apps/api/src/admin/inbox), its answers typed from the API's OpenAPI document
// (@switchboard/client): a field the API stops declaring stops compiling here.

type Answer<M extends Method, P extends PathsWith<M>> = DeclaredAnswer<Operation<M, P>>;

export type InboxItem = Answer<'get', '/v1/admin/inbox'>[number];
export type Conversation = Answer<'get', '/v1/admin/inbox/{id}'>;
export type ConversationMessage = Conversation['messages'][number];
export type InlineTurn = NonNullable<ConversationMessage['turn']>;
export type Note = Answer<'post', '/v1/admin/inbox/{id}/notes'>;

export const inboxApi = {
  list: () => adminFetch<InboxItem[]>('/inbox'),
  conversation: (id: string) => adminFetch<Conversation>(`/inbox/${id}`),
  takeOver: (id: string) => adminFetch<Answer<'post', '/v1/admin/inbox/{id}/take-over'>>(`/inbox/${id}/take-over`, { method: 'POST' }),
  reply: (id: string, text: string, clientKey: string) => adminFetch<Answer<'post', '/v1/admin/inbox/{id}/replies'>>(`/inbox/${id}/replies`, { method: 'POST', body: { text, clientKey } }),
  note: (id: string, text: string) => adminFetch<Note>(`/inbox/${id}/notes`, { method: 'POST', body: { text } }),
  markRead: (id: string) => adminFetch<Answer<'post', '/v1/admin/inbox/{id}/read'>>(`/inbox/${id}/read`, { method: 'POST' }),
  handBack: (id: string) => adminFetch<Answer<'post', '/v1/admin/sessions/{id}/hand-back'>>(`/sessions/${id}/hand-back`, { method: 'POST' }),
};
