import { SseParser } from './sse';

describe('SseParser', () => {
  it('reads events split across chunks, with ids, comments and CRLF', () => {
    const p = new SseParser();
    expect(p.feed(': connected\n\nevent: delta\ndata: {"delta":"A di')).toEqual([]);
    expect(p.feed('á"}\n\nevent: committed\r\nid: 42-40\r\ndata: {"turnId":"t"}\r\n\r\n: ping\n\n')).toEqual([
      { event: 'delta', data: '{"delta":"A diá"}' },
      { event: 'committed', data: '{"turnId":"t"}', id: '42-40' },
    ]);
  });

  it('joins multi-line data and defaults the event name to message', () => {
    expect(new SseParser().feed('data: a\ndata: b\n\n')).toEqual([{ event: 'message', data: 'a\nb' }]);
  });
});
