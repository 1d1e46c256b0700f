// REDIS_URL names one Redis or a Redis Cluster. One server: `redis://[user:pass@]host:port[/db]`
// (`rediss://` for TLS). A cluster: `redis+cluster://[user:pass@]host:port[,host:port…]`
// (`rediss+cluster://` for TLS) — any reachable nodes; the client discovers the rest.

export interface RedisNode {
  host: string;
  port: number;
}

export interface RedisTarget {
  cluster: boolean;
  nodes: RedisNode[];
  username?: string;
  password?: string;
  /** Logical database (one server only: a cluster has just database 0). */
  db?: number;
  tls: boolean;
}

const SCHEME = /^(rediss?)(\+cluster)?:\/\/(.*)$/i;

/** Reads REDIS_URL; throws an Error whose message says what is wrong, for the env check to show. */
export function parseRedisUrl(url: string): RedisTarget {
  const match = SCHEME.exec(url.trim());
  if (!match) throw new Error('must start with redis://, rediss://, redis+cluster:// or rediss+cluster://');
  const tls = match[1].toLowerCase() === 'rediss';
  const cluster = match[2] !== undefined;
  let rest = match[3];
  const slash = rest.indexOf('/');
  const path = slash >= 0 ? rest.slice(slash + 1) : '';
  rest = slash >= 0 ? rest.slice(0, slash) : rest;
  const at = rest.lastIndexOf('@');
  const auth = at >= 0 ? rest.slice(0, at) : '';
  const hosts = at >= 0 ? rest.slice(at + 1) : rest;

  const colon = auth.indexOf(':');
  const username = decodeURIComponent(colon >= 0 ? auth.slice(0, colon) : auth) || undefined;
  const password = colon >= 0 ? decodeURIComponent(auth.slice(colon + 1)) || undefined : undefined;

  const nodes = hosts.split(',').map((h) => parseNode(h.trim()));
  if (!cluster && nodes.length > 1) throw new Error('lists several hosts: a cluster is written redis+cluster://host:port,host:port');
  let db: number | undefined;
  if (path !== '') {
    if (!/^\d+$/.test(path)) throw new Error(`has "/${path}" where a database number belongs`);
    db = Number(path);
    if (cluster && db !== 0) throw new Error('names a database: a Redis Cluster has only database 0');
  }
  return { cluster, nodes, username, password, db: cluster ? undefined : db, tls };
}

function parseNode(text: string): RedisNode {
  // [::1]:6379, host:6379, or host alone (port 6379).
  const m = /^(\[[^\]]+\]|[^:[\]]+)(?::(\d+))?$/.exec(text);
  if (!m) throw new Error(`has a host that cannot be read: "${text}"`);
  const port = m[2] === undefined ? 6379 : Number(m[2]);
  if (port < 1 || port > 65535) throw new Error(`has a port out of range: "${text}"`);
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}
