import type { AgentRunTurn } from '@switchboard/queue';
import { containsArgs, evaluateTurn, expectationName, expectationSchema, type Expectation } from './expectations';

const turn: AgentRunTurn = {
  message: 'quero reservar um quarto em Curitiba',
  replies: [{ key: 'r1', text: 'A diária em Curitiba é R$ 320. Posso reservar?', kind: 'ai' }],
  trace: [
    { type: 'model', call: 'understand', round: 0, ms: 3 },
    { type: 'tool', round: 1, index: 0, id: 'call-1-0', tool: 'preco', arguments: { cidade: 'Curitiba', noites: 2 }, gate: 'ok', result: '320', ms: 1 },
    { type: 'tool', round: 1, index: 1, id: 'call-1-1', tool: 'reservar', arguments: { cidade: 'Curitiba' }, gate: 'unavailable', result: 'no', ms: 0 },
  ],
  outcomes: [{ kind: 'prompt', status: 'ok', code: 'spoke', stepId: 'oferta', flowId: 'hospedagem' }],
  llmCalls: 3,
  usage: { inputTokens: 10, outputTokens: 5, cachedInputTokens: 0 },
  fields: { cidade: 'Curitiba' },
  at: { flow: 'hospedagem', step: 'oferta' },
  recording: [],
  totalMs: 12,
};

const check = (e: Expectation) => evaluateTurn(turn, [e])[0];

describe('conversation test expectations', () => {
  it('check the reply: contains, does not contain, matches a pattern', () => {
    expect(check({ kind: 'reply-contains', text: 'R$ 320' })).toMatchObject({ passed: true, name: 'reply contains "R$ 320"' });
    expect(check({ kind: 'reply-contains', text: 'R$ 400' })).toMatchObject({ passed: false, detail: 'reply: "A diária em Curitiba é R$ 320. Posso reservar?"' });
    expect(check({ kind: 'reply-not-contains', text: 'Desculpe' }).passed).toBe(true);
    expect(check({ kind: 'reply-matches', pattern: 'r\\$ \\d+', flags: 'i' }).passed).toBe(true);
    expect(check({ kind: 'reply-matches', pattern: '^Olá' }).passed).toBe(false);
  });

  it('count a tool as called only when its gate let it run, with arguments containing the given values', () => {
    expect(check({ kind: 'tool-called', tool: 'preco', args: { cidade: 'Curitiba' } }).passed).toBe(true);
    expect(check({ kind: 'tool-called', tool: 'preco', args: { cidade: 'Recife' } })).toMatchObject({
      passed: false,
      detail: 'tool calls: preco({"cidade":"Curitiba","noites":2}) ok; reservar({"cidade":"Curitiba"}) unavailable',
    });
    expect(check({ kind: 'tool-not-called', tool: 'reservar' }).passed).toBe(true);
    expect(check({ kind: 'tool-not-called', tool: 'preco' }).passed).toBe(false);
  });

  it('check field values, the flow and step, failed outcomes and the model call budget', () => {
    expect(check({ kind: 'field-equals', field: 'cidade', value: 'Curitiba' }).passed).toBe(true);
    expect(check({ kind: 'field-equals', field: 'reserva', value: 'X' })).toMatchObject({ passed: false, detail: 'reserva is not set' });
    expect(check({ kind: 'at-step', flow: 'hospedagem', step: 'oferta' }).passed).toBe(true);
    expect(check({ kind: 'at-step', flow: 'hospedagem', step: 'confirma' })).toMatchObject({ passed: false, detail: 'at hospedagem / oferta' });
    expect(check({ kind: 'no-failed-outcome' }).passed).toBe(true);
    expect(evaluateTurn({ ...turn, outcomes: [{ kind: 'prompt', status: 'failed', code: 'provider-invalid', message: 'bad' }] }, [{ kind: 'no-failed-outcome' }])[0]).toMatchObject({
      passed: false,
      detail: 'failed: provider-invalid (bad)',
    });
    expect(check({ kind: 'max-model-calls', max: 3 }).passed).toBe(true);
    expect(check({ kind: 'max-model-calls', max: 2 })).toMatchObject({ passed: false, detail: '3 model calls' });
  });

  it('use the name given to an expectation in results', () => {
    expect(expectationName({ kind: 'reply-contains', text: 'x', name: 'offers the price' })).toBe('offers the price');
    expect(check({ kind: 'reply-contains', text: 'nope', name: 'offers the price' }).name).toBe('offers the price');
  });

  it('compare arguments by containment, deeply', () => {
    expect(containsArgs({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: 1 } })).toBe(true);
    expect(containsArgs({ a: { b: 1 } }, { a: { b: 2 } })).toBe(false);
    expect(containsArgs({ d: [1, 2] }, { d: [1] })).toBe(false);
  });

  it('refuse an invalid pattern and an unknown kind', () => {
    expect(expectationSchema.safeParse({ kind: 'reply-matches', pattern: '(' }).success).toBe(false);
    expect(expectationSchema.safeParse({ kind: 'reply-sounds-nice' }).success).toBe(false);
  });
});
