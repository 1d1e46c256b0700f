import { splitText } from './split-text';

describe('splitText', () => {
  it('keeps a text within the limit whole', () => {
    expect(splitText('Olá! Tudo bem?', 4096)).toEqual(['Olá! Tudo bem?']);
  });

  it('cuts at a paragraph break first, then a line, then a sentence, in order', () => {
    expect(splitText('aaaa aaaa\n\nbbbb bbbb', 12)).toEqual(['aaaa aaaa', 'bbbb bbbb']);
    expect(splitText('aaaa aaaa\nbbbb bbbb', 12)).toEqual(['aaaa aaaa', 'bbbb bbbb']);
    expect(splitText('Primeira frase. Segunda frase.', 20)).toEqual(['Primeira frase.', 'Segunda frase.']);
  });

  it('cuts a word longer than the limit hard, losing nothing', () => {
    const word = 'x'.repeat(25);
    const parts = splitText(word, 10);
    expect(parts).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)]);
  });

  it('never exceeds the limit and keeps every word in order', () => {
    const sentences = Array.from({ length: 300 }, (_, i) => `Frase número ${i} do texto longo.`);
    const text = sentences.join(' ');
    const parts = splitText(text, 4096);
    expect(parts.length).toBeGreaterThan(1);
    for (const p of parts) expect(p.length).toBeLessThanOrEqual(4096);
    expect(parts.join(' ')).toBe(text);
  });
});
