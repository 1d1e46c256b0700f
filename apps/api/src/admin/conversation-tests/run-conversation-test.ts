import { Injectable } from '@nestjs/common';
import type { AgentRunTarget, RecordedCall, ReplayDivergence } from '@switchboard/queue';
import { AgentRunsQueue } from '../agent-runs/agent-runs.queue';
import { evaluateTurn, type ExpectationResult, type TestTurn } from './expectations';

/** A stored test as a run needs it. */
export interface RunnableTest {
  id: string;
  tenantId: string;
  agentId: string;
  name: string;
  mode: string;
  turns: unknown;
  recording: unknown;
}

export interface TestTurnResult {
  index: number;
  message: string;
  replies: string[];
  passed: boolean;
  expectations: ExpectationResult[];
  /** The turn did not run (the run stopped at an earlier divergence or failure), or failed as a whole. */
  error?: { code: string; message: string };
}

export interface TestRunResult {
  testId: string;
  name: string;
  mode: 'replay' | 'live';
  /** "draft", "unsaved" or "v<N>". */
  target: string;
  passed: boolean;
  turns: TestTurnResult[];
  /** Replay only: the first model call no recorded reply fits. */
  diverged?: ReplayDivergence;
  /** The run could not start (the agent does not build). */
  error?: { code: string; message: string };
  ranAt: string;
}

/**
 * Runs one conversation test on a worker — replaying its recorded model replies (default) or
 * live — and checks every turn's expectations. A run stopped early (a divergence, a failure)
 * fails the turns it did not reach, naming why.
 */
@Injectable()
export class RunConversationTest {
  constructor(private readonly runs: AgentRunsQueue) {}

  async execute(test: RunnableTest, target: AgentRunTarget, targetLabel: string): Promise<TestRunResult> {
    const turns = test.turns as TestTurn[];
    const mode = test.mode === 'live' ? 'live' : 'replay';
    const base = { testId: test.id, name: test.name, mode, target: targetLabel, ranAt: new Date().toISOString() } as const;
    const answer = await this.runs.run({
      purpose: 'conversation-test',
      tenantId: test.tenantId,
      agentId: test.agentId,
      target,
      runId: test.id,
      mode,
      state: null,
      history: [],
      messages: turns.map((t) => t.message),
      ...(mode === 'replay' && { recording: test.recording as RecordedCall[][] }),
    });
    if (!answer.ok) {
      const notRun = turns.map((t, index) => ({ index, message: t.message, replies: [], passed: false, expectations: [], error: answer.error }));
      return { ...base, passed: false, turns: notRun, error: answer.error };
    }
    const results: TestTurnResult[] = turns.map((t, index) => {
      const ran = answer.turns[index];
      if (!ran) {
        const why = answer.diverged ? `not reached: the replay diverged at ${answer.diverged.message}` : 'not reached: the run stopped at an earlier turn';
        return { index, message: t.message, replies: [], passed: false, expectations: [], error: { code: 'turn-not-reached', message: why } };
      }
      const expectations = evaluateTurn(ran, t.expect);
      const diverged = answer.diverged && answer.diverged.turn === index + 1 ? answer.diverged : undefined;
      const error = ran.error ?? (diverged && { code: 'replay-diverged', message: diverged.message });
      return {
        index,
        message: t.message,
        replies: ran.replies.map((r) => r.text),
        passed: !error && expectations.every((e) => e.passed),
        expectations,
        ...(error && { error }),
      };
    });
    return { ...base, passed: results.every((r) => r.passed), turns: results, ...(answer.diverged && { diverged: answer.diverged }) };
  }
}
