// eventsToHistory / historyToEvents (engine.md §5): one round of tool calls is one assistant
// item with tool_calls followed by one tool item per call in history, and one tool event in
// events. Both directions check their input and name the index of the first bad entry.
import type { HistoryItem, ToolCallRef } from '../provider/types';
import type { ToolCall } from '../types/tool';
import { HistoryFormatError } from './errors';
import { TOOL_CALL_ID_META, type HistoryEvent, type MessageEvent, type ToolEvent } from './events';

/**
 * Events → the history the model reads. Status events are for people and are skipped; a tool
 * call's id is its `meta.tool_call_id` when it has one, else `event-<event>-<call>`.
 */
export function eventsToHistory(events: readonly HistoryEvent[]): HistoryItem[] {
  if (!Array.isArray(events)) throw new HistoryFormatError('events', undefined, `events must be an array, got ${typeName(events)}`);
  const history: HistoryItem[] = [];
  events.forEach((event: unknown, index) => {
    const fail = (what: string): never => {
      throw new HistoryFormatError('events', index, what);
    };
    if (!isObject(event)) return fail(`an event must be an object, got ${typeName(event)}`);
    const data = event.data;
    if (!isObject(data)) return fail(`data must be an object, got ${typeName(data)}`);
    switch (event.kind) {
      case 'message': {
        if (event.source !== 'user' && event.source !== 'assistant') {
          return fail(`a message event's source must be "user" or "assistant", got ${typeName(event.source)}`);
        }
        if (typeof data.message !== 'string') return fail(`data.message must be a string, got ${typeName(data.message)}`);
        history.push({ role: event.source, content: data.message });
        return;
      }
      case 'tool':
        history.push(...toolEventToItems(data, index, fail));
        return;
      case 'status':
        return;
      default:
        return fail(`kind must be "message", "tool" or "status", got ${typeName(event.kind)}`);
    }
  });
  return history;
}

function toolEventToItems(data: Record<string, unknown>, index: number, fail: (what: string) => never): HistoryItem[] {
  const { tool_calls: calls, message } = data;
  if (!Array.isArray(calls) || calls.length === 0) return fail(`data.tool_calls must be a non-empty array, got ${typeName(calls)}`);
  if (message !== undefined && typeof message !== 'string') return fail(`data.message must be a string, got ${typeName(message)}`);
  const refs: ToolCallRef[] = [];
  const results: HistoryItem[] = [];
  calls.forEach((call: unknown, position) => {
    const at = `data.tool_calls[${position}]`;
    if (!isObject(call)) return fail(`${at} must be an object, got ${typeName(call)}`);
    if (typeof call.tool_id !== 'string' || call.tool_id === '') return fail(`${at}.tool_id must be a non-empty string, got ${typeName(call.tool_id)}`);
    if (!isObject(call.arguments)) return fail(`${at}.arguments must be an object, got ${typeName(call.arguments)}`);
    if (!isObject(call.result)) return fail(`${at}.result must be an object ({ data, meta? }), got ${typeName(call.result)}`);
    const meta = call.result.meta;
    if (meta !== undefined && !isObject(meta)) return fail(`${at}.result.meta must be an object, got ${typeName(meta)}`);
    const keptId = meta === undefined ? undefined : meta[TOOL_CALL_ID_META];
    const id = typeof keptId === 'string' && keptId !== '' ? keptId : `event-${index}-${position}`;
    refs.push({ id, name: call.tool_id, arguments: structuredClone(call.arguments) });
    results.push({ role: 'tool', tool_call_id: id, name: call.tool_id, content: serializeResult(call.result.data) });
  });
  return [{ role: 'assistant', content: message ?? null, tool_calls: refs }, ...results];
}

/**
 * History → events. An assistant item with tool_calls and the tool items after it become one
 * tool event; a result that is JSON written the way `JSON.stringify` writes it comes back as
 * the value, any other text as the text.
 */
export function historyToEvents(history: readonly HistoryItem[]): HistoryEvent[] {
  if (!Array.isArray(history)) throw new HistoryFormatError('history', undefined, `history must be an array, got ${typeName(history)}`);
  const events: HistoryEvent[] = [];
  let index = 0;
  while (index < history.length) {
    const item: unknown = history[index];
    const fail = (what: string, at = index): never => {
      throw new HistoryFormatError('history', at, what);
    };
    if (!isObject(item)) return fail(`an item must be an object, got ${typeName(item)}`);
    if (item.role === 'user') {
      if (typeof item.content !== 'string') return fail(`a user item's content must be a string, got ${typeName(item.content)}`);
      events.push(message('user', item.content));
      index += 1;
    } else if (item.role === 'assistant') {
      const calls = item.tool_calls;
      if (calls !== undefined && !Array.isArray(calls)) return fail(`tool_calls must be an array, got ${typeName(calls)}`);
      if (item.content !== null && typeof item.content !== 'string') return fail(`an assistant item's content must be a string or null, got ${typeName(item.content)}`);
      if (calls === undefined || calls.length === 0) {
        if (item.content === null) return fail('an assistant item has neither content nor tool_calls');
        events.push(message('assistant', item.content));
        index += 1;
      } else {
        const { event, next } = readToolRound(history, index, calls, item.content, fail);
        events.push(event);
        index = next;
      }
    } else if (item.role === 'tool') {
      return fail(`a tool item answers call ${JSON.stringify(item.tool_call_id)}, but it does not follow an assistant item that made that call`);
    } else {
      return fail(`role must be "user", "assistant" or "tool", got ${typeName(item.role)}`);
    }
  }
  return events;
}

function readToolRound(
  history: readonly HistoryItem[],
  start: number,
  calls: unknown[],
  content: string | null,
  fail: (what: string, at?: number) => never,
): { event: ToolEvent; next: number } {
  const pending = new Map<string, { position: number; name: string; arguments: Record<string, unknown> }>();
  calls.forEach((call, position) => {
    if (!isObject(call) || typeof call.id !== 'string' || call.id === '' || typeof call.name !== 'string' || call.name === '') {
      return fail(`tool_calls[${position}] must be { id, name, arguments } with non-empty id and name`);
    }
    if (!isObject(call.arguments)) return fail(`tool_calls[${position}].arguments must be an object, got ${typeName(call.arguments)}`);
    if (pending.has(call.id)) return fail(`tool_calls[${position}] repeats the id ${JSON.stringify(call.id)}`);
    pending.set(call.id, { position, name: call.name, arguments: structuredClone(call.arguments) });
  });
  const toolCalls: ToolCall[] = new Array(calls.length);
  let next = start + 1;
  while (pending.size > 0) {
    const item: unknown = history[next];
    if (!isObject(item) || item.role !== 'tool') {
      const missing = [...pending.keys()].map((id) => JSON.stringify(id)).join(', ');
      return fail(`tool call ${missing} has no tool item answering it right after this item`, start);
    }
    const call = typeof item.tool_call_id === 'string' ? pending.get(item.tool_call_id) : undefined;
    if (!call) return fail(`a tool item answers call ${JSON.stringify(item.tool_call_id)}, which the assistant item at index ${start} did not make (or was answered already)`, next);
    if (item.name !== call.name) return fail(`a tool item for call ${JSON.stringify(item.tool_call_id)} is named ${JSON.stringify(item.name)}, but the call was to ${JSON.stringify(call.name)}`, next);
    if (typeof item.content !== 'string') return fail(`a tool item's content must be a string, got ${typeName(item.content)}`, next);
    toolCalls[call.position] = {
      tool_id: call.name,
      arguments: call.arguments,
      result: { data: parseResult(item.content), meta: { [TOOL_CALL_ID_META]: item.tool_call_id } },
    };
    pending.delete(item.tool_call_id as string);
    next += 1;
  }
  const data: ToolEvent['data'] = content === null ? { tool_calls: toolCalls } : { tool_calls: toolCalls, message: content };
  return { event: { kind: 'tool', source: 'agent', data }, next };
}

function message(source: 'user' | 'assistant', text: string): MessageEvent {
  return { kind: 'message', source, data: { message: text } };
}

/** tool.md's rule for what the model reads: a string as is, `undefined` as `{"ok":true}`, else JSON. */
export function serializeResult(data: unknown): string {
  if (typeof data === 'string') return data;
  if (data === undefined) return '{"ok":true}';
  return JSON.stringify(data) ?? '{"ok":true}';
}

/** The inverse of `serializeResult` where it is exact; other text stays text. */
function parseResult(content: string): unknown {
  try {
    const value: unknown = JSON.parse(content);
    return typeof value !== 'string' && JSON.stringify(value) === content ? value : content;
  } catch {
    return content;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${JSON.stringify(value)}`;
}
