// engine.md §3 step 1 and §1 values: the understand call, and values checked and coerced.
import { ProviderError } from '@falai/agent';
import { agent, model, says } from './support';

const hotel = { id: 'hotel', name: 'Hotel', on: [{ message: ['quero um quarto', '!cancelar reserva'] }], steps: [{ id: 'fim', say: 'ok' }] };

function judging(fields: Record<string, unknown>, flows: Record<string, number> = {}) {
  return () => ({ structured: { flows, fields } });
}

describe('the understand call', () => {
  it('is skipped when there is nothing to judge', async () => {
    const provider = model(says('oi'));
    const result = await agent({ provider }).turn({ sessionId: 's', message: 'oi' });
    expect(provider.calls('understand')).toHaveLength(0);
    expect(result.llmCalls).toBe(1);
  });

  it('is skipped when every field is known and no flow can start', async () => {
    const provider = model(says('oi'));
    const a = agent({ provider, fields: { cidade: { type: 'string' } } });
    await a.turn({ sessionId: 's', message: 'oi', data: { cidade: 'Curitiba' } });
    expect(provider.calls('understand')).toHaveLength(0);
  });

  it('is one call, round 0, no tools, with sections only for what there is to judge', async () => {
    const provider = model(says('oi'));
    await agent({ provider, flows: [hotel] }).turn({ sessionId: 's', message: 'oi' });
    const [req] = provider.calls('understand');
    expect(req).toMatchObject({ call: 'understand', round: 0, tools: [] });
    expect(req.schema?.schema).toMatchObject({ required: ['flows'], properties: { flows: { required: ['hotel'] } } });
    expect(req.system).toContain('"quero um quarto"');
    expect(req.system).toContain('not when: "cancelar reserva"');
    expect(req.history).toEqual([{ role: 'user', content: 'oi' }]);
  });

  it('offers missing "anywhere" fields with their type, description and enum', async () => {
    const provider = model(says('oi'));
    const fields = { quarto: { type: 'string' as const, enum: ['simples', 'duplo'], description: 'Tipo de quarto' }, cidade: { type: 'string' as const } };
    await agent({ provider, fields }).turn({ sessionId: 's', message: 'oi', data: { cidade: 'Curitiba' } });
    const [req] = provider.calls('understand');
    expect(req.schema?.schema).toMatchObject({
      required: ['fields'],
      properties: { fields: { required: ['quarto'], properties: { quarto: { type: ['string', 'null'], enum: ['simples', 'duplo', null], description: 'Tipo de quarto' } } } },
    });
  });

  it('does not offer a boolean (extract "asked") unless a step is asking for it', async () => {
    const provider = model(says('Confirma?'), judging({ confirmado: 'sim' }));
    const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'conf', collect: ['confirmado'] }] }];
    const a = agent({ provider, fields: { confirmado: { type: 'boolean' as const } }, flows });
    const first = await a.turn({ sessionId: 's', message: 'sim, quero' });
    expect(provider.calls('understand')).toHaveLength(0);
    expect(first.session.data).toEqual({});
    const second = await a.turn({ sessionId: 's', message: 'sim' });
    expect(provider.calls('understand')[0].schema?.schema).toMatchObject({ properties: { fields: { required: ['confirmado'] } } });
    expect(second.session.data).toEqual({ confirmado: true });
  });

  it('offers a boolean of the step the asking run waits at, even when the step before asked the question', async () => {
    const provider = model((req) => ({ structured: { message: req.context?.includes('Posso reservar?') ? 'Posso reservar?' : 'Reservado.' } }), judging({ confirmado: 'sim' }));
    const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'oferta', prompt: 'Posso reservar?' }, { id: 'conf', collect: ['confirmado'] }, { id: 'fim', say: 'Feito.' }] }];
    const a = agent({ provider, fields: { confirmado: { type: 'boolean' as const } }, flows });
    await a.turn({ sessionId: 's', message: 'oi' });
    const yes = await a.turn({ sessionId: 's', message: 'sim' });
    expect(yes.session.data).toEqual({ confirmado: true });
    expect(yes.outcomes.map((o) => [o.stepId, o.code])).toEqual([['conf', 'already-known'], ['fim', 'said']]);
  });

  it('a reply that does not parse counts as a call and judges nothing', async () => {
    const provider = model(says('oi'), () => ({ text: 'not json at all' }));
    const result = await agent({ provider, flows: [hotel] }).turn({ sessionId: 's', message: 'quero um quarto' });
    expect(result.llmCalls).toBe(2);
    expect(result.started).toEqual([]);
    expect(result.messages[0]).toMatchObject({ kind: 'ai', text: 'oi' });
  });

  it('a failed understand call throws ProviderError from turn and saves nothing', async () => {
    let failures = 1;
    const provider = model(says('oi'), () => {
      if (failures-- > 0) throw new ProviderError({ kind: 'overloaded', message: 'try later' });
      return { structured: { flows: {} } };
    });
    const a = agent({ provider, flows: [hotel] });
    await expect(a.turn({ sessionId: 's', message: 'quero um quarto', id: 'm1' })).rejects.toMatchObject({ name: 'ProviderError', kind: 'overloaded' });
    expect(provider.calls('speak')).toHaveLength(0);
    // The host retries the same input: it is not a duplicate, and the session is the first save.
    const retry = await a.turn({ sessionId: 's', message: 'quero um quarto', id: 'm1' });
    expect(retry.changed).toBe(true);
    expect(retry.session).toMatchObject({ version: 1, inputs: ['m1'] });
  });
});

describe('values the model reports', () => {
  const fields = {
    hospedes: { type: 'integer' as const },
    valor: { type: 'number' as const },
    quarto: { type: 'string' as const, enum: ['simples', 'duplo'] },
    cidade: { type: 'string' as const },
  };

  async function reported(values: Record<string, unknown>) {
    const provider = model(says('ok'), judging(values));
    return agent({ provider, fields }).turn({ sessionId: 's', message: 'x' });
  }

  it('are coerced to the field type before they are written', async () => {
    const r = await reported({ hospedes: '3.9', valor: '1500,50', cidade: 42 });
    expect(r.session.data).toEqual({ hospedes: 3, valor: 1500.5, cidade: '42' });
  });

  it('a value that cannot be read is dropped with bad-value, and the field stays missing', async () => {
    const r = await reported({ valor: '1.500,50' });
    expect(r.session.data).toEqual({});
    expect(r.outcomes).toContainEqual(expect.objectContaining({ status: 'skipped', code: 'bad-value', detail: { field: 'valor', value: '1.500,50' } }));
  });

  it('a value outside the enum is dropped with not-in-enum', async () => {
    const r = await reported({ quarto: 'presidencial' });
    expect(r.session.data).toEqual({});
    expect(r.outcomes).toContainEqual(expect.objectContaining({ code: 'not-in-enum', detail: { field: 'quarto', value: 'presidencial' } }));
  });

  it('a slug the agent lacks is reported as unknown-field', async () => {
    const r = await reported({ sobrenome: 'Silva' });
    expect(r.session.data).toEqual({});
    expect(r.outcomes).toContainEqual(expect.objectContaining({ code: 'unknown-field', detail: { field: 'sobrenome', value: 'Silva' } }));
  });

  it('null means not said: no write and no outcome', async () => {
    const r = await reported({ cidade: null, hospedes: null });
    expect(r.session.data).toEqual({});
    expect(r.outcomes.filter((o) => o.code !== 'spoke')).toEqual([]);
  });

  it('speak envelope values are checked the same way', async () => {
    const provider = model(() => ({ structured: { message: 'ok', hospedes: 'muitos' } }));
    const flows = [{ id: 'f', name: 'F', on: [{ message: [] }], steps: [{ id: 'q', collect: ['hospedes'] }] }];
    const r = await agent({ provider, fields: { hospedes: { type: 'integer' as const } }, flows }).turn({ sessionId: 's', message: 'x' });
    expect(r.session.data).toEqual({});
    expect(r.outcomes).toContainEqual(expect.objectContaining({ runId: expect.any(String), stepId: 'q', code: 'bad-value' }));
  });
});
