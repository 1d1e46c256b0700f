import { Injectable } from '@nestjs/common';

/** How many agents a process remembers (the least recently answered are forgotten first). */
export const REMEMBERED_AGENTS = 10_000;

/**
 * When each agent's model last answered a turn in this process. A session waiting out a deferral
 * asks it: if the model answered since, the outage is over (or was this process's alone) and the
 * session tries again at once instead of waiting out its rung (provider-backoff.ts).
 */
@Injectable()
export class AgentModelHealth {
  // Insertion-ordered: an answer moves its agent to the end, so the oldest are dropped first.
  private readonly lastAnswer = new Map<string, number>();

  answered(agentId: string, at = Date.now()): void {
    this.lastAnswer.delete(agentId);
    this.lastAnswer.set(agentId, at);
    if (this.lastAnswer.size > REMEMBERED_AGENTS) this.lastAnswer.delete(this.lastAnswer.keys().next().value!);
  }

  /** True when a turn of the agent had its model answer after `since` (epoch ms). */
  answeredSince(agentId: string, since: number): boolean {
    return (this.lastAnswer.get(agentId) ?? -Infinity) > since;
  }
}
