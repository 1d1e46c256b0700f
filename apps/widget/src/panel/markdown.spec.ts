import { parseInline, parseMarkdown, safeHref } from './markdown';

describe('parseMarkdown', () => {
  it('reads paragraphs, line breaks, bold, italic, code, links and lists', () => {
    expect(parseMarkdown('Yes! **Sourdough** and *rye*:\n- plain `loaf`\n- with olives\n\n1. order\n2. [pay](https://pay.example/x)')).toEqual([
      { kind: 'p', children: [{ kind: 'text', text: 'Yes! ' }, { kind: 'strong', children: [{ kind: 'text', text: 'Sourdough' }] }, { kind: 'text', text: ' and ' }, { kind: 'em', children: [{ kind: 'text', text: 'rye' }] }, { kind: 'text', text: ':' }] },
      { kind: 'list', ordered: false, items: [[{ kind: 'text', text: 'plain ' }, { kind: 'code', text: 'loaf' }], [{ kind: 'text', text: 'with olives' }]] },
      { kind: 'list', ordered: true, items: [[{ kind: 'text', text: 'order' }], [{ kind: 'link', href: 'https://pay.example/x', children: [{ kind: 'text', text: 'pay' }] }]] },
    ]);
    expect(parseMarkdown('one\ntwo')).toEqual([{ kind: 'p', children: [{ kind: 'text', text: 'one' }, { kind: 'br' }, { kind: 'text', text: 'two' }] }]);
  });

  it('links bare web addresses without their trailing punctuation', () => {
    expect(parseInline('See https://example.com/a?b=1. Thanks')).toEqual([
      { kind: 'text', text: 'See ' },
      { kind: 'link', href: 'https://example.com/a?b=1', children: [{ kind: 'text', text: 'https://example.com/a?b=1' }] },
      { kind: 'text', text: '. Thanks' },
    ]);
  });

  it('keeps markup and unsafe links as plain text', () => {
    expect(parseInline('<img src=x onerror=alert(1)> [click](javascript:alert(1)) [x](data:text/html,hi)')).toEqual([
      { kind: 'text', text: '<img src=x onerror=alert(1)> [click](javascript:alert(1)) [x](data:text/html,hi)' },
    ]);
    expect(safeHref('javascript:alert(1)')).toBeNull();
    expect(safeHref(' mailto:ana@example.test ')).toBe('mailto:ana@example.test');
    expect(parseInline('2 * 3 * 4 and snake_case_name')).toEqual([{ kind: 'text', text: '2 * 3 * 4 and snake_case_name' }]);
  });
});
