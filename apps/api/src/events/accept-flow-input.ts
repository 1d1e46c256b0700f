import { isDeepStrictEqual } from 'node:util';
import { Injectable } from '@nestjs/common';
import type { Prisma, WakeStatus } from '@switchboard/db';
import { flowInputWakeKey, type FlowInput } from '@switchboard/queue';
import { TurnsQueue } from '../queue/turns-queue.service';
import { IdempotencyKeyReusedError } from './flow-input.errors';

/** `queued` until the worker runs it; `processed` once its turn committed; `ignored` when it changed nothing (a replay, nothing waiting). */
export type FlowInputStatus = 'queued' | 'processed' | 'ignored';

export interface AcceptedFlowInput {
  inputId: string;
  sessionId: string;
  status: FlowInputStatus;
  /** True when the key was seen before for this session: nothing was stored this time. */
  duplicate: boolean;
}

const STATUS: Record<WakeStatus, FlowInputStatus> = { scheduled: 'queued', fired: 'processed', cancelled: 'ignored' };

/**
 * Stores an event or a manual start durably, then enqueues its job. The row is a Wake due now
 * (key `input:<kind>:<name>:<key>`, unique per session): a retried POST finds it and runs
 * nothing twice, the worker runs it under the session lease and marks it fired in the turn's
 * commit, and the sweeper re-adds its job if the enqueue below is lost.
 */
@Injectable()
export class AcceptFlowInput {
  constructor(private readonly turns: TurnsQueue) {}

  /** `tx` writes the row (the caller's tenant-scoped transaction); the job is added after it commits, by `enqueue`. */
  async store(tx: Prisma.TransactionClient, tenantId: string, sessionId: string, input: FlowInput): Promise<AcceptedFlowInput & { key: string; at: Date }> {
    const key = flowInputWakeKey(input);
    const payload = input as unknown as Prisma.InputJsonValue;
    const now = new Date();
    // ON CONFLICT DO NOTHING keeps a racing retry from failing the transaction; the row read after is the winner's.
    const created = await tx.wake.createMany({ data: [{ tenantId, sessionId, key, dueAt: now, payload }], skipDuplicates: true });
    const row = await tx.wake.findUniqueOrThrow({
      where: { sessionId_key: { sessionId, key } },
      select: { id: true, status: true, payload: true, dueAt: true },
    });
    const duplicate = created.count === 0;
    if (duplicate && !isDeepStrictEqual(row.payload, JSON.parse(JSON.stringify(input)))) throw new IdempotencyKeyReusedError(input.kind);
    return { inputId: row.id, sessionId, status: STATUS[row.status], duplicate, key, at: row.dueAt };
  }

  /** Adds the input's job (a no-op while one with its id exists). False when Redis refused: the sweeper adds it. */
  enqueue(tenantId: string, sessionId: string, key: string, at: Date): Promise<boolean> {
    return this.turns.enqueueWake({ tenantId, sessionId, acceptedAt: Date.now(), wake: key, wakeAt: at.getTime() });
  }
}
