import { diffConfigs } from './config-diff';

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
});
