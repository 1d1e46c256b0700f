import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

// A real Redis Cluster for the cluster suite, started from the machine's own redis-server: three
// masters in cluster mode on free local ports, each in a throwaway directory, slots assigned with
// `redis-cli --cluster create`. Stopped and deleted by stop().

const run = promisify(execFile);

export interface RedisCluster {
  /** REDIS_URL for the apps: redis+cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3 */
  url: string;
  ports: number[];
  /** A redis-cli command on one node (e.g. DBSIZE), its output trimmed. */
  cli(port: number, ...args: string[]): Promise<string>;
  stop(): Promise<void>;
}

/** Why a cluster cannot be started here (redis-server or redis-cli missing), or undefined when it can. */
export function clusterUnavailable(): string | undefined {
  for (const tool of ['redis-server', 'redis-cli']) {
    if (spawnSync(tool, ['--version']).status !== 0) return `${tool} is not installed (apt-get install -y redis-server)`;
  }
  return undefined;
}

export async function startRedisCluster(masters = 3): Promise<RedisCluster> {
  const ports = await freeClusterPorts(masters);
  const dir = mkdtempSync(path.join(tmpdir(), 'sbt-cluster-'));
  const nodes: ChildProcess[] = ports.map((port) =>
    spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`,
        '--cluster-node-timeout', '2000', '--save', '', '--appendonly', 'no', '--dir', dir],
      { stdio: 'ignore' },
    ),
  );
  const cli = async (port: number, ...args: string[]) => (await run('redis-cli', ['-p', String(port), ...args])).stdout.trim();
  const stop = async () => {
    await Promise.all(
      nodes.map((n) => (n.exitCode !== null ? undefined : new Promise<void>((resolve) => {
        n.once('exit', () => resolve());
        n.kill('SIGKILL');
      }))),
    );
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const port of ports) await until(async () => (await cli(port, 'ping').catch(() => '')) === 'PONG', `node ${port} to answer`);
    await run('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes']);
    for (const port of ports) {
      await until(async () => (await cli(port, 'cluster', 'info')).includes('cluster_state:ok'), `node ${port} to see the cluster ok`);
    }
  } catch (err) {
    await stop();
    throw err;
  }
  return { url: `redis+cluster://${ports.map((p) => `127.0.0.1:${p}`).join(',')}`, ports, cli, stop };
}

/** Ports free now whose cluster bus port (port + 10000) is free too. */
async function freeClusterPorts(count: number): Promise<number[]> {
  const ports: number[] = [];
  while (ports.length < count) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    if (ports.includes(port) || !(await isFree(port)) || !(await isFree(port + 10_000))) continue;
    ports.push(port);
  }
  return ports;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

async function until(probe: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`Redis Cluster: timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
