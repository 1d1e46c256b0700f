import type { HistoryItem } from '../provider/types';
import { eventsToHistory, HistoryFormatError, historyToEvents, serializeResult, type HistoryEvent } from './index';

// A turn of tool.md's example as the engine's speak call records it: one round with text
// beside two calls, then the reply.
const history: HistoryItem[] = [
  { role: 'user', content: 'Quero um quarto em Curitiba' },
  {
    role: 'assistant',
    content: 'Vou verificar.',
    tool_calls: [
      { id: 'call-1-0', name: 'preco', arguments: { cidade: 'Curitiba' } },
      { id: 'call-1-1', name: 'reservar', arguments: { cidade: 'Curitiba' } },
    ],
  },
  { role: 'tool', tool_call_id: 'call-1-0', name: 'preco', content: '{"precoNoite":420}' },
  { role: 'tool', tool_call_id: 'call-1-1', name: 'reservar', content: 'RES-1' },
  { role: 'assistant', content: null, tool_calls: [{ id: 'call-2-0', name: 'preco', arguments: {} }] },
  { role: 'tool', tool_call_id: 'call-2-0', name: 'preco', content: '{"ok":true}' },
  { role: 'assistant', content: 'A diária é R$ 420.' },
];

const events: HistoryEvent[] = [
  { kind: 'message', source: 'user', data: { message: 'Quero um quarto em Curitiba' } },
  {
    kind: 'tool',
    source: 'agent',
    data: {
      message: 'Vou verificar.',
      tool_calls: [
        { tool_id: 'preco', arguments: { cidade: 'Curitiba' }, result: { data: { precoNoite: 420 }, meta: { tool_call_id: 'call-1-0' } } },
        { tool_id: 'reservar', arguments: { cidade: 'Curitiba' }, result: { data: 'RES-1', meta: { tool_call_id: 'call-1-1' } } },
      ],
    },
  },
  { kind: 'tool', source: 'agent', data: { tool_calls: [{ tool_id: 'preco', arguments: {}, result: { data: { ok: true }, meta: { tool_call_id: 'call-2-0' } } }] } },
  { kind: 'message', source: 'assistant', data: { message: 'A diária é R$ 420.' } },
];

function formatError(run: () => unknown): HistoryFormatError {
  try {
    run();
  } catch (err) {
    if (err instanceof HistoryFormatError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe('historyToEvents', () => {
  it('turns a round of tool calls and its results into one tool event, in call order', () => {
    expect(historyToEvents(history)).toEqual(events);
  });

  it('matches results to calls by id, whatever order the tool items come in', () => {
    const swapped = [history[0], history[1], history[3], history[2]];
    expect(historyToEvents(swapped)).toEqual([events[0], events[1]]);
  });

  it('keeps a result that is not canonical JSON as the text the model read', () => {
    const items: HistoryItem[] = [
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 't', arguments: {} }, { id: 'b', name: 't', arguments: {} }, { id: 'c', name: 't', arguments: {} }] },
      { role: 'tool', tool_call_id: 'a', name: 't', content: '{ "spaced": true }' },
      { role: 'tool', tool_call_id: 'b', name: 't', content: '"quoted"' },
      { role: 'tool', tool_call_id: 'c', name: 't', content: '42' },
    ];
    const [event] = historyToEvents(items) as [Extract<HistoryEvent, { kind: 'tool' }>];
    expect(event.data.tool_calls.map((call) => call.result.data)).toEqual(['{ "spaced": true }', '"quoted"', 42]);
    expect(eventsToHistory([event])).toEqual(items);
  });

  it.each<[string, unknown, number | undefined, string]>([
    ['a list that is not an array', { role: 'user' }, undefined, '[HistoryFormatError] history: history must be an array, got an object.'],
    ['an unknown role', [history[0], { role: 'system', content: 'x' }], 1, '[HistoryFormatError] history[1]: role must be "user", "assistant" or "tool", got string "system".'],
    ['an item that is not an object', ['oi'], 0, '[HistoryFormatError] history[0]: an item must be an object, got string "oi".'],
    ['a user item without text', [{ role: 'user', content: null }], 0, "[HistoryFormatError] history[0]: a user item's content must be a string, got null."],
    ['an empty assistant item', [history[0], { role: 'assistant', content: null }], 1, '[HistoryFormatError] history[1]: an assistant item has neither content nor tool_calls.'],
    [
      'a tool item with no call before it',
      [history[0], history[2]],
      1,
      '[HistoryFormatError] history[1]: a tool item answers call "call-1-0", but it does not follow an assistant item that made that call.',
    ],
    [
      'a call nobody answered',
      [history[0], history[1], history[2], history[6]],
      1,
      '[HistoryFormatError] history[1]: tool call "call-1-1" has no tool item answering it right after this item.',
    ],
    [
      'a call answered twice',
      [history[1], history[2], history[2], history[3]],
      2,
      '[HistoryFormatError] history[2]: a tool item answers call "call-1-0", which the assistant item at index 0 did not make (or was answered already).',
    ],
    [
      'a result under another tool name',
      [history[4], { ...history[5], name: 'reservar' }],
      1,
      '[HistoryFormatError] history[1]: a tool item for call "call-2-0" is named "reservar", but the call was to "preco".',
    ],
    [
      'a call with arguments as text',
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 't', arguments: '{}' }] }],
      0,
      '[HistoryFormatError] history[0]: tool_calls[0].arguments must be an object, got string "{}".',
    ],
    [
      'two calls with one id',
      [{ role: 'assistant', content: null, tool_calls: [{ id: 'a', name: 't', arguments: {} }, { id: 'a', name: 't', arguments: {} }] }],
      0,
      '[HistoryFormatError] history[0]: tool_calls[1] repeats the id "a".',
    ],
  ])('refuses %s, naming the index', (_name, input, index, message) => {
    const err = formatError(() => historyToEvents(input as HistoryItem[]));
    expect(err.message).toBe(message);
    expect(err.index).toBe(index);
    expect(err.code).toBe('invalid-history');
  });
});

describe('eventsToHistory', () => {
  it('turns events back into the items the model reads', () => {
    expect(eventsToHistory(events)).toEqual(history);
  });

  it('serializes results as tool.md says the model reads them and numbers calls without a kept id', () => {
    const items = eventsToHistory([
      { kind: 'message', source: 'user', data: { message: 'oi', participant: { display_name: 'Ana' } }, timestamp: '2026-12-02T13:00:00Z' },
      {
        kind: 'tool',
        source: 'agent',
        data: {
          tool_calls: [
            { tool_id: 'a', arguments: {}, result: { data: undefined } },
            { tool_id: 'b', arguments: { x: 1 }, result: { data: [1, 2] } },
            { tool_id: 'c', arguments: {}, result: { data: 'texto' } },
          ],
        },
      },
    ]);
    expect(items).toEqual([
      { role: 'user', content: 'oi' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'event-1-0', name: 'a', arguments: {} },
          { id: 'event-1-1', name: 'b', arguments: { x: 1 } },
          { id: 'event-1-2', name: 'c', arguments: {} },
        ],
      },
      { role: 'tool', tool_call_id: 'event-1-0', name: 'a', content: '{"ok":true}' },
      { role: 'tool', tool_call_id: 'event-1-1', name: 'b', content: '[1,2]' },
      { role: 'tool', tool_call_id: 'event-1-2', name: 'c', content: 'texto' },
    ]);
  });

  it('skips status events: they are for people, not the model', () => {
    expect(eventsToHistory([{ kind: 'status', source: 'system', data: { status: 'handoff' } }, events[0]])).toEqual([history[0]]);
  });

  it.each<[string, unknown, number | undefined, string]>([
    ['a list that is not an array', 'x', undefined, '[HistoryFormatError] events: events must be an array, got string "x".'],
    ['an unknown kind', [{ kind: 'note', source: 'user', data: {} }], 0, '[HistoryFormatError] events[0]: kind must be "message", "tool" or "status", got string "note".'],
    ['an event without data', [events[0], { kind: 'message', source: 'user' }], 1, '[HistoryFormatError] events[1]: data must be an object, got nothing.'],
    [
      'a message from the system',
      [{ kind: 'message', source: 'system', data: { message: 'x' } }],
      0,
      '[HistoryFormatError] events[0]: a message event\'s source must be "user" or "assistant", got string "system".',
    ],
    ['a message without text', [{ kind: 'message', source: 'user', data: { message: 3 } }], 0, '[HistoryFormatError] events[0]: data.message must be a string, got number 3.'],
    ['a tool event without calls', [{ kind: 'tool', source: 'agent', data: { tool_calls: [] } }], 0, '[HistoryFormatError] events[0]: data.tool_calls must be a non-empty array, got an array.'],
    [
      'a call without a tool id',
      [{ kind: 'tool', source: 'agent', data: { tool_calls: [{ arguments: {}, result: { data: 1 } }] } }],
      0,
      '[HistoryFormatError] events[0]: data.tool_calls[0].tool_id must be a non-empty string, got nothing.',
    ],
    [
      'a call without a result',
      [{ kind: 'tool', source: 'agent', data: { tool_calls: [{ tool_id: 't', arguments: {} }] } }],
      0,
      '[HistoryFormatError] events[0]: data.tool_calls[0].result must be an object ({ data, meta? }), got nothing.',
    ],
    [
      'a call whose arguments are not an object',
      [{ kind: 'tool', source: 'agent', data: { tool_calls: [{ tool_id: 't', arguments: [1], result: { data: 1 } }] } }],
      0,
      '[HistoryFormatError] events[0]: data.tool_calls[0].arguments must be an object, got an array.',
    ],
  ])('refuses %s, naming the index', (_name, input, index, message) => {
    const err = formatError(() => eventsToHistory(input as HistoryEvent[]));
    expect(err.message).toBe(message);
    expect(err.index).toBe(index);
  });
});

describe('round trips', () => {
  it('history → events → history gives the same items', () => {
    expect(eventsToHistory(historyToEvents(history))).toEqual(history);
  });

  it('events → history → events gives the same events when results are JSON values', () => {
    expect(historyToEvents(eventsToHistory(events))).toEqual(events);
  });

  it('does not share objects with its input', () => {
    const out = historyToEvents(history) as Extract<HistoryEvent, { kind: 'tool' }>[];
    (out[1].data.tool_calls[0].arguments as Record<string, unknown>).cidade = 'Recife';
    expect(history[1]).toMatchObject({ tool_calls: [{ arguments: { cidade: 'Curitiba' } }, expect.anything()] });
  });
});

describe('serializeResult', () => {
  it('follows tool.md: a string as is, undefined as {"ok":true}, anything else as JSON', () => {
    expect(serializeResult('texto')).toBe('texto');
    expect(serializeResult(undefined)).toBe('{"ok":true}');
    expect(serializeResult({ a: 1 })).toBe('{"a":1}');
    expect(serializeResult(null)).toBe('null');
  });
});

describe('copies', () => {
  it('eventsToHistory does not share arguments with its input', () => {
    const items = eventsToHistory(events);
    (items[1] as { tool_calls: { arguments: Record<string, unknown> }[] }).tool_calls[0].arguments.cidade = 'Recife';
    expect((events[1].data as { tool_calls: { arguments: unknown }[] }).tool_calls[0].arguments).toEqual({ cidade: 'Curitiba' });
  });
});
