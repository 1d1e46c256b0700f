// Event-style history (tool.md: "the event-style history the conversion helpers read and
// write"), for hosts that store a conversation as events rather than as model history items.
import type { ToolCall } from '../types/tool';

export type EventSource = 'user' | 'assistant' | 'agent' | 'system';

export interface Participant {
  display_name: string;
  id?: string;
}

/** Something the customer or the assistant said. */
export interface MessageEvent {
  kind: 'message';
  source: 'user' | 'assistant';
  data: { message: string; participant?: Participant };
  timestamp?: string;
  id?: string;
}

/** Tool calls the assistant made in one round, each with its result. */
export interface ToolEvent {
  kind: 'tool';
  source: 'agent';
  data: {
    tool_calls: ToolCall[];
    /** Text the model wrote beside the calls, if any. */
    message?: string;
  };
  timestamp?: string;
  id?: string;
}

/** A note for people (handoff, typing, …); the model never reads it. */
export interface StatusEvent {
  kind: 'status';
  source: EventSource;
  data: { status: string; details?: Record<string, unknown> };
  timestamp?: string;
  id?: string;
}

export type HistoryEvent = MessageEvent | ToolEvent | StatusEvent;

/** Where `historyToEvents` keeps a call's history id, so the round trip gives it back. */
export const TOOL_CALL_ID_META = 'tool_call_id';
