import { loadEnv } from './load-env';

describe('TRUST_PROXY', () => {
  it('is off unless set: nobody may say who the client is', () => {
    expect(loadEnv({}).TRUST_PROXY).toBe(false);
    expect(loadEnv({ TRUST_PROXY: 'off' }).TRUST_PROXY).toBe(false);
  });

  it('takes a hop count or a list of proxy addresses, CIDRs and range names', () => {
    expect(loadEnv({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2);
    expect(loadEnv({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.5,::1,fd00::/8,loopback' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      '192.168.1.5',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses `true`, hop counts out of range and anything that is not an address, naming the variable', () => {
    for (const bad of ['true', '0', '11', '10.0.0.0/33', 'proxy.example', '10.0.0.1,,']) {
      expect(() => loadEnv({ TRUST_PROXY: bad })).toThrow(/TRUST_PROXY: /);
    }
  });
});
