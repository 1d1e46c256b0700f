import { lookup, type LookupAddress } from 'node:dns';
import { assertAllowedHost, assertAllowedLiteral, ForbiddenAddressError, guardedLookup, isForbiddenAddress, type Resolve } from './address-guard';

/** Runs a lookup function the way net.connect does and reports what it answered. */
function runLookup(resolve: Resolve, host: string, allowed: string[] = [], options: { all?: boolean; family?: number } = { all: true }) {
  return new Promise<LookupAddress[] | string>((done, fail) => {
    const lookup = guardedLookup(new Set(allowed), resolve) as unknown as (h: string, o: object, cb: (err: Error | null, a: unknown, f?: number) => void) => void;
    lookup(host, options, (err, a) => (err ? fail(err) : done(a as LookupAddress[] | string)));
  });
}
const answering = (...addresses: string[]): Resolve => (_h, cb) => cb(null, addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));

describe('HTTP tool address guard', () => {
  it.each([
    '127.0.0.1',
    '127.10.0.5',
    '10.0.0.1',
    '172.16.4.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '192.0.2.1',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::abcd:1',
    'fc00::1',
    'fd00:ec2::254',
    'fdff:ffff::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:7f00:1::1', // 6to4 of 127.0.0.1
    '2001::1', // Teredo
    '2001:db8::1',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])('allows the public %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ['[::1]', '::1'],
    ['[::ffff:7f00:1]', '::ffff:7f00:1'],
    ['[fe80::1]', 'fe80::1'],
    ['[fc00::1]', 'fc00::1'],
    ['127.0.0.1', '127.0.0.1'],
  ])('refuses the IP-literal host %s, which sockets connect to without a lookup', (host) => {
    expect(() => assertAllowedLiteral(host, new Set())).toThrow(ForbiddenAddressError);
  });

  it('refuses the decimal, octal and hex spellings of loopback, which URL parsing turns into 127.0.0.1', () => {
    for (const url of ['http://2130706433/', 'http://0177.0.0.1/', 'http://0x7f.0.0.1/', 'http://0x7f000001/', 'http://127.1/']) {
      const host = new URL(url).hostname;
      expect({ url, host }).toEqual({ url, host: '127.0.0.1' });
      expect(() => assertAllowedLiteral(host, new Set())).toThrow(ForbiddenAddressError);
    }
  });

  it('lets a name through the lookup only when every address it resolves to is public', async () => {
    await expect(runLookup(answering('8.8.8.8'), 'public.test')).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
    await expect(runLookup(answering('8.8.8.8'), 'public.test', [], {})).resolves.toBe('8.8.8.8');
    await expect(runLookup(answering('8.8.8.8', '10.0.0.1'), 'mixed.test')).rejects.toThrow(/^refused to call mixed\.test \(10\.0\.0\.1\): loopback, private/);
    await expect(runLookup(answering('::ffff:127.0.0.1'), 'mapped.test')).rejects.toThrow(ForbiddenAddressError);
    await expect(runLookup(answering(), 'nothing.test')).rejects.toThrow(ForbiddenAddressError);
  });

  it('refuses a real host name that resolves to loopback, with a message that says why and what to do', async () => {
    await expect(runLookup((h, cb) => lookup(h, { all: true }, cb), 'localhost')).rejects.toThrow(
      /^refused to call localhost \((127\.0\.0\.1|::1)\): loopback, private.*allow-list this host\.$/,
    );
  });

  it('lets an operator allow-list a host by name or address', async () => {
    await expect(runLookup(answering('127.0.0.1'), 'internal.test', ['internal.test'])).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(() => assertAllowedLiteral('127.0.0.1', new Set(['127.0.0.1']))).not.toThrow();
    expect(() => assertAllowedLiteral('[::1]', new Set(['::1']))).not.toThrow();
  });

  it('asks DNS once per lookup, so the answer it checked is the answer the socket uses', async () => {
    const answers = ['8.8.8.8', '127.0.0.1'];
    let asked = 0;
    const rebinding: Resolve = (_h, cb) => cb(null, [{ address: answers[Math.min(asked++, 1)], family: 4 }]);
    await expect(runLookup(rebinding, 'rebind.test')).resolves.toEqual([{ address: '8.8.8.8', family: 4 }]);
    expect(asked).toBe(1);
    await expect(runLookup(rebinding, 'rebind.test')).rejects.toThrow(ForbiddenAddressError);
  });
});

describe('assertAllowedHost (the check at save or publish)', () => {
  const answer = (address: string): Resolve => (_h, cb) => cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);

  it('refuses a forbidden literal and a name that resolves to a forbidden address, unless allow-listed', async () => {
    await expect(assertAllowedHost('169.254.169.254', new Set())).rejects.toBeInstanceOf(ForbiddenAddressError);
    await expect(assertAllowedHost('[::1]', new Set())).rejects.toBeInstanceOf(ForbiddenAddressError);
    await expect(assertAllowedHost('llm.internal', new Set(), { resolve: answer('10.0.0.5') })).rejects.toThrow(/llm\.internal \(10\.0\.0\.5\)/);
    await expect(assertAllowedHost('llm.internal', new Set(['llm.internal']), { resolve: answer('10.0.0.5') })).resolves.toBeUndefined();
    await expect(assertAllowedHost('api.example.com', new Set(), { resolve: answer('93.184.215.14') })).resolves.toBeUndefined();
  });

  it('lets a name through when DNS fails or does not answer in time (the connection checks it then)', async () => {
    await expect(assertAllowedHost('gone.example.test', new Set(), { resolve: (_h, cb) => cb(Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' }), []) })).resolves.toBeUndefined();
    await expect(assertAllowedHost('slow.example.test', new Set(), { resolve: () => undefined, timeoutMs: 20 })).resolves.toBeUndefined();
  });
});
