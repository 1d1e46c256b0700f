import { Logger } from '@nestjs/common';
import { Processor, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import type { HistoryItem, Session, TurnResult } from '@falai/agent';
import { PrismaService, recordConsoleUsage } from '@switchboard/db';
import { QUEUES, type AgentRunJobData, type AgentRunResult, type AgentRunTurn } from '@switchboard/queue';
import { permanentFailureCode } from '../turns/turn-failure';
import { RunAgentBuilder } from './run-agent-builder';

/**
 * Console runs of an agent (`{agent-runs}`): a playground turn, or a conversation test's messages
 * in order, through the real engine and the real tools, on the draft, a version or a config the
 * API checked. State and history live in the job and its answer: no channel, no Session and no
 * Turn row, so customer usage never counts them; a live run's model calls go to its own console
 * line (ConsoleUsageDaily), which the tenant's quota counts. A failure the engine reports (a
 * provider that refused, an agent that does not build) is an answer too, not a failed job.
 */
@Processor(QUEUES.agentRuns, { concurrency: 4 })
export class AgentRunProcessor extends WorkerHost {
  private readonly logger = new Logger(AgentRunProcessor.name);

  constructor(
    private readonly builder: RunAgentBuilder,
    private readonly prisma: PrismaService,
  ) {
    super();
  }

  async process(job: Job<AgentRunJobData>): Promise<AgentRunResult> {
    const data = job.data;
    let built;
    try {
      built = await this.builder.build(data);
    } catch (err) {
      return { ok: false, error: errorOf(err, 'agent-not-buildable') };
    }
    const { agent, recorder, replay, version, provider } = built;
    let state = (data.state as Session | null) ?? undefined;
    const history: HistoryItem[] = [...data.history];
    const turns: AgentRunTurn[] = [];
    for (const [index, message] of data.messages.entries()) {
      replay?.startTurn(index);
      const started = performance.now();
      let result: TurnResult;
      try {
        result = await agent.turn({
          sessionId: data.runId,
          message,
          id: `${data.runId}:${history.length}`,
          ...(state && { session: state }),
          history,
          context: { tenantId: data.tenantId, sessionId: data.runId, turnId: `${data.runId}:${index}`, messageId: `${data.runId}:${history.length}` },
        });
      } catch (err) {
        const code = permanentFailureCode(err) ?? 'turn-failed';
        turns.push(failedTurn(message, { code, message: (err as Error).message }, recorder?.take() ?? [], performance.now() - started));
        break;
      }
      state = result.session;
      turns.push(turnOf(message, result, recorder?.take() ?? [], performance.now() - started));
      history.push({ role: 'user', content: message }, ...result.messages.map((m) => ({ role: 'assistant' as const, content: m.text })));
      if (replay?.diverged) break;
    }
    this.logger.log({ msg: 'agent run', agentId: data.agentId, mode: data.mode, target: data.target.kind, turns: turns.length, diverged: !!replay?.diverged });
    if (data.mode === 'live') await this.recordUsage(data, turns);
    return { ok: true, version, provider, turns, state: state ?? null, ...(replay?.diverged && { diverged: replay.diverged }) };
  }

  /** A live run's model calls on the console's own usage line; a failed write is logged, never the run's failure. */
  private async recordUsage(data: AgentRunJobData, turns: readonly AgentRunTurn[]): Promise<void> {
    const sum = consoleUsageOf(turns);
    if (sum.turns === 0) return;
    try {
      await recordConsoleUsage(this.prisma, { tenantId: data.tenantId, agentId: data.agentId, source: data.purpose, at: new Date(), ...sum });
    } catch (err) {
      this.logger.error({ msg: 'console usage not recorded', agentId: data.agentId, purpose: data.purpose, error: (err as Error).message });
    }
  }
}

/**
 * What a live run cost: its turns, and the model calls and tokens of each. A turn the engine
 * could not finish has no result usage; the calls it made before failing are in its recording.
 */
export function consoleUsageOf(turns: readonly AgentRunTurn[]) {
  const sum = { turns: turns.length, llmCalls: 0, inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 };
  for (const t of turns) {
    if (t.error) {
      sum.llmCalls += t.recording.length;
      for (const r of t.recording) {
        sum.inputTokens += r.reply.usage?.inputTokens ?? 0;
        sum.outputTokens += r.reply.usage?.outputTokens ?? 0;
        sum.cachedInputTokens += r.reply.usage?.cachedInputTokens ?? 0;
      }
    } else {
      sum.llmCalls += t.llmCalls;
      sum.inputTokens += t.usage.inputTokens;
      sum.outputTokens += t.usage.outputTokens;
      sum.cachedInputTokens += t.usage.cachedInputTokens;
    }
  }
  return sum;
}

function errorOf(err: unknown, fallback: string): { code: string; message: string } {
  const code = (err as { code?: unknown }).code;
  return { code: typeof code === 'string' ? code : fallback, message: err instanceof Error ? err.message : String(err) };
}

function turnOf(message: string, result: TurnResult, recording: AgentRunTurn['recording'], ms: number): AgentRunTurn {
  const run = result.session.runs.find((r) => !r.side) ?? result.session.runs[0];
  return {
    message,
    replies: result.messages.map((m) => ({ key: m.key, text: m.text, kind: m.kind })),
    trace: result.trace,
    outcomes: result.outcomes.map((o) => ({
      kind: o.kind,
      status: o.status,
      ...(o.code && { code: o.code }),
      ...(o.message && { message: o.message }),
      ...(o.stepId && { stepId: o.stepId }),
      ...(o.flowId && { flowId: o.flowId }),
    })),
    llmCalls: result.llmCalls,
    usage: {
      inputTokens: result.usage?.inputTokens ?? 0,
      outputTokens: result.usage?.outputTokens ?? 0,
      cachedInputTokens: result.usage?.cachedInputTokens ?? 0,
    },
    fields: result.session.data,
    at: run ? { flow: run.flowId, step: run.stepId } : null,
    recording,
    totalMs: Math.round(ms),
  };
}

function failedTurn(message: string, error: { code: string; message: string }, recording: AgentRunTurn['recording'], ms: number): AgentRunTurn {
  return {
    message,
    replies: [],
    trace: [],
    outcomes: [{ kind: 'idle', status: 'failed', code: error.code, message: error.message }],
    llmCalls: 0,
    usage: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 },
    fields: {},
    at: null,
    recording,
    totalMs: Math.round(ms),
    error,
  };
}
