import { diffConfigs, normalizedConfig } from './config-diff';

describe('diffConfigs', () => {
  it('names each changed, added and removed leaf by its JSON Pointer', () => {
    const before = { tools: ['a', 'b'], fields: { city: { type: 'string' } }, maxToolLoops: 3 };
    const after = { tools: ['a'], fields: { city: { type: 'string', ask: 'Which city?' } }, fallbackMessage: 'Sorry' };
    expect(diffConfigs(before, after)).toEqual([
      { path: '/tools/1', before: 'b' },
      { path: '/fields/city/ask', after: 'Which city?' },
      { path: '/maxToolLoops', before: 3 },
      { path: '/fallbackMessage', after: 'Sorry' },
    ]);
  });

  it('finds nothing between equal configs', () => {
    expect(diffConfigs({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toEqual([]);
  });

  it('reports no phantom /name removal when the console saved the draft without the name the version has', () => {
    const version = { name: 'Concierge', provider: { kind: 'scripted', model: 'm' }, fields: {}, flows: [], tools: [] };
    const draft = { provider: { kind: 'scripted', model: 'm' }, fields: {}, flows: [], tools: [] };
    expect(diffConfigs(normalizedConfig(version, 'Concierge'), normalizedConfig(draft, 'Concierge'))).toEqual([]);
    expect(diffConfigs(normalizedConfig(version, 'Concierge'), normalizedConfig({ ...draft, tools: ['preco'] }, 'Concierge'))).toEqual([{ path: '/tools/0', after: 'preco' }]);
  });
});
