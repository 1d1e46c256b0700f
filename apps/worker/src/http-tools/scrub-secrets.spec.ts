import type { HttpCallResult } from './guarded-http-call';
import { SCRUBBED, scrubSecrets } from './scrub-secrets';

const res = (body: string, headers: HttpCallResult['headers'] = {}): HttpCallResult => ({ status: 200, contentType: 'application/json', headers, body });

describe('scrubSecrets', () => {
  it('cuts every secret header value out of an echoed body and headers, the bare credential too', () => {
    const echoed = res(JSON.stringify({ headers: { authorization: 'Bearer s3cr3t-token', 'x-api-key': 'k-123456' }, token: 's3cr3t-token' }), {
      'x-echo': 'k-123456',
      'set-cookie': ['a=k-123456', 'b=1'],
    });
    const out = scrubSecrets(echoed, ['Bearer s3cr3t-token', 'k-123456']);
    expect(out.body).not.toContain('s3cr3t-token');
    expect(out.body).not.toContain('k-123456');
    expect(JSON.parse(out.body)).toEqual({ headers: { authorization: SCRUBBED, 'x-api-key': SCRUBBED }, token: SCRUBBED });
    expect(out.headers).toEqual({ 'x-echo': SCRUBBED, 'set-cookie': [`a=${SCRUBBED}`, 'b=1'] });
    expect(out.status).toBe(200);
  });

  it('leaves the response alone without secrets, and ignores values too short to scrub safely', () => {
    const plain = res('{"ok":"yes"}');
    expect(scrubSecrets(plain, [])).toBe(plain);
    expect(scrubSecrets(plain, ['yes']).body).toBe('{"ok":"yes"}');
  });
});
