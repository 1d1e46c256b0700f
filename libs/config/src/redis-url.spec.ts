import { loadEnv } from './load-env';
import { parseRedisUrl } from './redis-url';

describe('parseRedisUrl', () => {
  it('reads one server, with credentials, database and TLS', () => {
    expect(parseRedisUrl('redis://127.0.0.1:6379')).toEqual({ cluster: false, nodes: [{ host: '127.0.0.1', port: 6379 }], tls: false });
    expect(parseRedisUrl('rediss://app:p%40ss@cache.internal:6380/3')).toEqual({
      cluster: false,
      nodes: [{ host: 'cache.internal', port: 6380 }],
      username: 'app',
      password: 'p@ss',
      db: 3,
      tls: true,
    });
    expect(parseRedisUrl('redis://:secret@[::1]')).toMatchObject({ nodes: [{ host: '::1', port: 6379 }], password: 'secret' });
  });

  it('reads a cluster as its seed nodes', () => {
    expect(parseRedisUrl('redis+cluster://:pw@10.0.0.1:7000,10.0.0.2:7001,10.0.0.3')).toEqual({
      cluster: true,
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '10.0.0.3', port: 6379 },
      ],
      password: 'pw',
      tls: false,
    });
    expect(parseRedisUrl('rediss+cluster://n1:7000/0')).toMatchObject({ cluster: true, tls: true, db: undefined });
  });

  it('says what is wrong with a URL it cannot use', () => {
    expect(() => parseRedisUrl('http://x')).toThrow(/redis\+cluster:\/\//);
    expect(() => parseRedisUrl('redis://a:1,b:2')).toThrow(/cluster is written redis\+cluster/);
    expect(() => parseRedisUrl('redis+cluster://a:1/2')).toThrow(/only database 0/);
    expect(() => parseRedisUrl('redis://a:99999')).toThrow(/port out of range/);
    expect(() => parseRedisUrl('redis://a/x')).toThrow(/database number/);
  });

  it('is how the environment check reads REDIS_URL', () => {
    expect(loadEnv({ REDIS_URL: 'redis+cluster://127.0.0.1:7000,127.0.0.1:7001' }).REDIS_URL).toBe('redis+cluster://127.0.0.1:7000,127.0.0.1:7001');
    expect(() => loadEnv({ REDIS_URL: 'redis://a:1,b:2' })).toThrow(/REDIS_URL.*redis\+cluster/);
  });
});
