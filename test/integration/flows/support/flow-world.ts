import type { PrismaClient } from '@switchboard/db';
import { startApi, stopApi } from '../../../support/api-process';
import { createTenantFixture, testPrisma, type TenantFixture } from '../../../support/fixtures';
import { startWorker, type WorkerProcess } from '../../../support/worker-process';
import { unique } from '../../worker/support/rows';
import { eventually, type PrivateApi } from '../../worker/support/private-api';
import { flowAgentConfig } from './flow-agent';
import { deleteQueueKeys } from '../../../support/queue-keys';

// A private API (own QUEUE_PREFIX, so no other suite's worker takes these jobs), a real worker
// process on that queue, and a tenant whose agent is the flow test agent. `backendEnv` goes to
// both processes: `{ REDIS_URL: '' }` runs them in Postgres mode (BullMQ's Postgres backend,
// tables under the prefix's own schema, so the shared test database is safe).

export interface FlowWorld {
  prisma: PrismaClient;
  api: PrivateApi;
  worker: WorkerProcess;
  fixture: TenantFixture;
  stop(): Promise<void>;
}

export async function startFlowWorld(backendEnv: Record<string, string> = {}): Promise<FlowWorld> {
  const prisma = testPrisma();
  const queuePrefix = unique('sbt-flow');
  const child = await startApi({ ...process.env, QUEUE_PREFIX: queuePrefix, LOG_LEVEL: 'warn', ...backendEnv }, queuePrefix);
  const api: PrivateApi = { baseUrl: child.baseUrl, metricsUrl: child.metricsUrl, queuePrefix, logFile: child.logFile, stop: () => stopApi(child.child) };
  const worker = await startWorker({ QUEUE_PREFIX: queuePrefix, ...backendEnv });
  const fixture = await createTenantFixture(prisma, { agentConfig: flowAgentConfig });
  return {
    prisma,
    api,
    worker,
    fixture,
    async stop() {
      await worker.stop();
      await api.stop();
      await deleteQueueKeys(queuePrefix);
      await prisma.$disconnect();
    },
  };
}

/** The session's outbound texts in order, hidden (not yet visible) ones included. */
export async function outboundTexts(prisma: PrismaClient, sessionId: string): Promise<string[]> {
  const rows = await prisma.message.findMany({ where: { sessionId, direction: 'outbound' }, orderBy: { seq: 'asc' }, select: { text: true } });
  return rows.map((r) => r.text);
}

/** Waits until the session has an outbound message with this text; returns every outbound text then. */
export function replyArrives(prisma: PrismaClient, sessionId: string, text: string): Promise<string[]> {
  return eventually(async () => {
    const texts = await outboundTexts(prisma, sessionId);
    return texts.includes(text) && texts;
  }, 90_000);
}

/** The outcome codes of every committed turn of the session, in order. */
export async function outcomeCodes(prisma: PrismaClient, sessionId: string): Promise<string[][]> {
  const turns = await prisma.turn.findMany({ where: { sessionId }, orderBy: { createdAt: 'asc' }, select: { outcomeCodes: true } });
  return turns.map((t) => t.outcomeCodes);
}
