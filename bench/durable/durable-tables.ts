import { Client } from 'pg';

// The bare durable pipeline's own two tables in the bench database: the message (accepted, then
// answered) and its reply. Named per scenario, so scenarios never see each other's rows; created
// by the bench before the scenario and dropped after it.

/** The BullMQ queue the durable route adds to and the durable workers take from. */
export const DURABLE_QUEUE = 'durable';

export interface DurableTables {
  messages: string;
  replies: string;
}

export function durableTables(id: string): DurableTables {
  const base = `bench_durable_${id.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
  return { messages: `${base}_message`, replies: `${base}_reply` };
}

/** The env a durable child process reads its table names from (see durableTablesFromEnv). */
export function durableTablesEnv(t: DurableTables): Record<string, string> {
  return { DURABLE_MESSAGES: t.messages, DURABLE_REPLIES: t.replies };
}

export function durableTablesFromEnv(): DurableTables {
  const messages = process.env.DURABLE_MESSAGES;
  const replies = process.env.DURABLE_REPLIES;
  if (!messages || !replies) throw new Error('DURABLE_MESSAGES and DURABLE_REPLIES must name the bare durable pipeline tables');
  return { messages, replies };
}

/** Creates both tables (as small as the platform's Message row needs for the same job: ids, text, status, times). */
export async function createDurableTables(databaseUrl: string, t: DurableTables): Promise<void> {
  await withClient(databaseUrl, (c) =>
    c.query(`
      CREATE TABLE ${t.messages} (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        session_key text NOT NULL,
        text text NOT NULL,
        status text NOT NULL DEFAULT 'queued',
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp(),
        answered_at timestamptz(3)
      );
      CREATE INDEX ON ${t.messages} (session_key);
      CREATE TABLE ${t.replies} (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        message_id uuid NOT NULL REFERENCES ${t.messages} (id),
        text text NOT NULL,
        created_at timestamptz(3) NOT NULL DEFAULT clock_timestamp()
      );`),
  );
}

export async function dropDurableTables(databaseUrl: string, t: DurableTables): Promise<void> {
  await withClient(databaseUrl, (c) => c.query(`DROP TABLE IF EXISTS ${t.replies}, ${t.messages}`));
}

export async function withClient<T>(databaseUrl: string, fn: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
