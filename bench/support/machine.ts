import os from 'node:os';
import { Client } from 'pg';
import Redis from 'ioredis';

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  ramGiB: number;
  node: string;
  postgres: string;
  redis: string;
  os: string;
}

/** The machine the figures come from, so a reader can compare runs. */
export async function describeMachine(databaseUrl: string, redisUrl: string): Promise<MachineInfo> {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cores: cpus.length,
    ramGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    postgres: await postgresVersion(databaseUrl),
    redis: await redisVersion(redisUrl),
    os: `${os.type()} ${os.release()}`,
  };
}

async function postgresVersion(url: string): Promise<string> {
  const c = new Client({ connectionString: url });
  try {
    await c.connect();
    const r = await c.query<{ server_version: string }>('SHOW server_version');
    return r.rows[0].server_version;
  } catch {
    return 'unknown';
  } finally {
    await c.end().catch(() => undefined);
  }
}

async function redisVersion(url: string): Promise<string> {
  const r = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await r.connect();
    const info = await r.info('server');
    return /redis_version:(\S+)/.exec(info)?.[1] ?? 'unknown';
  } catch {
    return 'unknown';
  } finally {
    r.disconnect();
  }
}

export function loadAverage(): number[] {
  return os.loadavg().map((n) => Math.round(n * 100) / 100);
}
