import { Job, type MinimalQueue } from 'bullmq';

/**
 * Puts a turn job BullMQ found stalled (its worker died mid-turn) at the head of the line.
 * BullMQ returns a stalled job with the priority it was added with: the fair-share count of its
 * tenant's window (docs/fairness.md), which every job of a later window undercuts, so under a
 * backlog a killed worker's sessions waited behind messages that came after theirs (the chaos
 * run's slow recoveries, issue #24). Priority 0 at the head of the wait list is what the
 * sweeper's re-enqueues get: recovery goes first. A job some worker already took again keeps
 * running; only its stored priority changes.
 */
export async function putStalledTurnJobFirst(queue: MinimalQueue, jobId: string): Promise<boolean> {
  const job = await Job.fromId(queue, jobId);
  if (!job || job.priority === 0) return false;
  await job.changePriority({ priority: 0, lifo: true });
  return true;
}
