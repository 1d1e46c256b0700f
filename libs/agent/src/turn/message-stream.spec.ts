import { EnvelopeMessageDecoder } from './message-stream';

/** Feeds `raw` in pieces of `size` characters and returns each piece's output. */
function feed(raw: string, size: number): string[] {
  const decoder = new EnvelopeMessageDecoder();
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += size) out.push(decoder.push(raw.slice(i, i + size)));
  return out;
}

describe('EnvelopeMessageDecoder', () => {
  const envelope = JSON.stringify({ cidade: 'Curitiba', message: 'A diária é "R$ 420".\nPosso reservar? \u00e9 😀', hospedes: 2 });

  it.each([1, 2, 3, 7, 1000])('gives only the message text, whatever the piece size (%p)', (size) => {
    expect(feed(envelope, size).join('')).toBe('A diária é "R$ 420".\nPosso reservar? é 😀');
  });

  it('never splits a surrogate pair between two pieces of output', () => {
    const raw = '{"message":"ok \\ud83d\\ude00!"}';
    for (const size of [1, 2, 5]) {
      const pieces = feed(raw, size).filter((p) => p !== '');
      for (const p of pieces) expect(p).toBe(Buffer.from(p, 'utf8').toString('utf8'));
      expect(pieces.join('')).toBe('ok 😀!');
    }
  });

  it('ignores nested "message" keys and string values that look like keys', () => {
    const raw = JSON.stringify({ meta: { message: 'no' }, note: 'message', list: ['message'], message: 'sim' });
    expect(feed(raw, 3).join('')).toBe('sim');
  });

  it('streams plain text as is, leading spaces included', () => {
    expect(feed('  Olá, tudo bem?', 4).join('')).toBe('  Olá, tudo bem?');
  });

  it('gives nothing for an envelope without a message, and nothing after the message ends', () => {
    expect(feed('{"cidade":"x"}', 2).join('')).toBe('');
    expect(feed('{"message":"a"} trailing', 2).join('')).toBe('a');
  });
});
