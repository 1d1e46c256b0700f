// The ingest side of the bare durable pipeline baseline: a bare Fastify route (the API's version)
// that stores the message with one `pg` statement (a named, prepared INSERT) and adds its BullMQ
// job with the platform's turn-job options and job id — what "accepted" must cost at least when
// it is durable. No auth, no rate limit, no Nest. Run as a child process; prints {"port": N} once
// listening, stops on SIGTERM. Input: BARE_* and DURABLE_* variables, DURABLE_POOL_MAX.
import Fastify from 'fastify';
import { Pool } from 'pg';
import { TURN_JOB_OPTIONS } from '@switchboard/queue';
import { bareQueue, bareTargetFromEnv } from '../support/bare-queue';
import { DURABLE_QUEUE, durableTablesFromEnv } from './durable-tables';

async function main(): Promise<void> {
  const target = bareTargetFromEnv();
  const tables = durableTablesFromEnv();
  // The API's pool size (DATABASE_POOL_MAX's default), so neither side gets more connections.
  const pool = new Pool({ connectionString: target.databaseUrl, max: Number(process.env.DURABLE_POOL_MAX ?? 10) });
  const queue = bareQueue(DURABLE_QUEUE, target);
  await queue.waitUntilReady();
  const insert = { name: 'durable-insert', text: `INSERT INTO ${tables.messages} (session_key, text) VALUES ($1, $2) RETURNING id` };

  const app = Fastify({ logger: false });
  app.post('/v1/messages', async (request, reply) => {
    const body = request.body as { session: string; text: string };
    const { rows } = await pool.query<{ id: string }>({ ...insert, values: [body.session, body.text] });
    const id = rows[0].id;
    await queue.add('turn', { messageId: id }, { ...TURN_JOB_OPTIONS, jobId: id });
    void reply.status(202);
    return { messageId: id, sessionId: body.session, status: 'queued' };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
  process.once('SIGTERM', () => void app.close().then(() => Promise.all([queue.close(), pool.end()])).then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
