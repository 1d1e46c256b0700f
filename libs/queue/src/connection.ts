import { parseRedisUrl, type RedisTarget } from '@switchboard/config';
import type { ConnectionOptions } from 'bullmq';
import { Cluster, Redis, type RedisOptions } from 'ioredis';

// Every Redis connection of the apps is made here, from REDIS_URL: one server, or a Redis Cluster
// (redis+cluster://host:port,host:port…). Keys that must share a slot carry a hash tag (queue
// names, see queue-names.ts); every other key is used alone.

/** A connection to one Redis or to a cluster: the commands the apps use are the same on both. */
export type RedisClient = Redis | Cluster;

/** Options of one connection; on a cluster they apply to each node's connection. */
export type RedisClientOptions = Pick<RedisOptions, 'enableOfflineQueue' | 'enableAutoPipelining' | 'lazyConnect' | 'maxRetriesPerRequest'>;

/** A new connection to REDIS_URL's server or cluster. */
export function createRedisClient(url: string, options: RedisClientOptions = {}): RedisClient {
  const target = parseRedisUrl(url);
  if (!target.cluster) return new Redis({ ...serverOptions(target), ...options });
  const { enableOfflineQueue, enableAutoPipelining, lazyConnect, maxRetriesPerRequest } = options;
  return new Cluster(target.nodes, {
    enableOfflineQueue,
    enableAutoPipelining,
    lazyConnect,
    redisOptions: { ...serverOptions(target), ...(maxRetriesPerRequest !== undefined && { maxRetriesPerRequest }) },
  });
}

// BullMQ builds its own connections from options, but only for one server: a cluster must be
// handed over as a client. One per process and URL, shared by every queue and worker (BullMQ
// duplicates it for blocking reads), closed by closeSharedClusters at shutdown.
const sharedClusters = new Map<string, Cluster>();

/**
 * BullMQ connection for REDIS_URL, with `options` added (e.g. no offline queue for the API's
 * producer). maxRetriesPerRequest is null, as BullMQ's workers require.
 */
export function redisConnection(url: string, options: RedisClientOptions = {}): ConnectionOptions {
  const target = parseRedisUrl(url);
  if (!target.cluster) return { ...serverOptions(target), ...options, maxRetriesPerRequest: null };
  const key = `${url} ${JSON.stringify(options)}`;
  let cluster = sharedClusters.get(key);
  if (!cluster) {
    cluster = createRedisClient(url, { ...options, maxRetriesPerRequest: null }) as Cluster;
    sharedClusters.set(key, cluster);
  }
  return cluster;
}

/** Closes the cluster clients redisConnection handed to BullMQ (BullMQ leaves shared clients open). */
export async function closeSharedClusters(): Promise<void> {
  const clusters = [...sharedClusters.values()];
  sharedClusters.clear();
  await Promise.all(clusters.map((c) => c.quit().catch(() => c.disconnect())));
}

/** Where one server is and how to log in to it (a type literal, so BullMQ's option type takes it). */
type ServerOptions = { host: string; port: number; username?: string; password?: string; db?: number; tls?: object };

function serverOptions(target: RedisTarget): ServerOptions {
  const [node] = target.nodes;
  return {
    host: node.host,
    port: node.port,
    username: target.username,
    password: target.password,
    db: target.db,
    tls: target.tls ? {} : undefined,
  };
}
