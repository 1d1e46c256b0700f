// The baseline of the ingest bench: a bare Fastify server (the same version the API runs on)
// whose POST /v1/messages parses the JSON body and answers 202 — no auth, no database, no queue.
// Run as a child process; prints {"port": N} once listening, stops on SIGTERM.
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  app.post('/v1/messages', async (request, reply) => {
    const body = request.body as { session?: string };
    void reply.status(202);
    return { messageId: randomUUID(), sessionId: body.session ?? '', status: 'queued' };
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
}

main().catch((err: unknown) => {
  process.stderr.write(`${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
