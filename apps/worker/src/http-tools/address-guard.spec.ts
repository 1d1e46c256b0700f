import { ForbiddenAddressError, isForbiddenAddress, resolveAllowedTarget } from './address-guard';

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
    '::1',
    '::',
    'fe80::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it('refuses a host name that resolves to loopback, with a message that says why and what to do', async () => {
    await expect(resolveAllowedTarget('localhost', new Set())).rejects.toThrow(ForbiddenAddressError);
    await expect(resolveAllowedTarget('localhost', new Set())).rejects.toThrow(/^refused to call localhost \((127\.0\.0\.1|::1)\): loopback, private/);
    await expect(resolveAllowedTarget('[::1]', new Set())).rejects.toThrow(ForbiddenAddressError);
  });

  it('lets an operator allow-list a host by name', async () => {
    expect(await resolveAllowedTarget('127.0.0.1', new Set(['127.0.0.1']))).toEqual({ address: '127.0.0.1', family: 4 });
  });
});
