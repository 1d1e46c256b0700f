import { Module } from '@nestjs/common';
import { Test, type TestingModule } from '@nestjs/testing';
import { ScriptedProvider, type HistoryItem, type ToolTrace } from '@falai/agent';
import { buildEngineAgent, parseAgentConfig } from '@switchboard/agent-config';
import { DbModule, PrismaService, TenantQuotas } from '@switchboard/db';
import { AgentCatalog, type LoadedAgent } from '../../../apps/worker/src/agents/agent-catalog';
import { hostStore } from '../../../apps/worker/src/agents/host-store';
import { loadWorkerEnv } from '../../../apps/worker/src/config/worker-env';
import { WorkerEnvModule } from '../../../apps/worker/src/config/worker-env.module';
import { RedisModule } from '../../../apps/worker/src/redis/redis.module';
import { AgentTool, type AgentToolHandler, type TurnContext } from '../../../apps/worker/src/tools/agent-tool.decorator';
import { ToolRegistry } from '../../../apps/worker/src/tools/tool-registry';
import { ToolsModule } from '../../../apps/worker/src/tools/tools.module';
import { CommitTurn } from '../../../apps/worker/src/turns/commit-turn';
import { LoadTurnState } from '../../../apps/worker/src/turns/load-turn-state';
import { AgentModelHealth } from '../../../apps/worker/src/turns/agent-model-health';
import { RunTurn } from '../../../apps/worker/src/turns/run-turn';
import { SessionEvents } from '../../../apps/worker/src/turns/session-events';
import { WakeScheduler } from '../../../apps/worker/src/wakes/wake-scheduler';
import { createSessionRows, queueInbound, unique } from '../worker/support/rows';

// Misbehaving code tools inside a real turn: the worker's turn pipeline (registry → engine →
// commit) in a Nest testing module, with extra @AgentTool providers that exist only in this test.
// Each tool's failure must reach the model as a tool result, and the turn must still commit.

jest.setTimeout(60_000);

const FIVE_MB = 5 * 1024 * 1024;

@AgentTool({ id: 'quebra', description: 'Always throws.' })
class ThrowingTool implements AgentToolHandler {
  handle(): never {
    throw new Error('tabela de preços indisponível');
  }
}

// Never settles: only the worker's time limit ends the call.
@AgentTool({ id: 'trava', description: 'Hangs; has its own limit.', timeoutMs: 300 })
class HangingTool implements AgentToolHandler {
  handle(): Promise<never> {
    return new Promise<never>(() => undefined);
  }
}

@AgentTool({ id: 'trava_padrao', description: 'Hangs; uses the worker default limit.' })
class HangingDefaultTool implements AgentToolHandler {
  handle(): Promise<never> {
    return new Promise<never>(() => undefined);
  }
}

@AgentTool({ id: 'enorme', description: 'Returns 5 MB.', maxResultSizeChars: 2_000 })
class HugeTool implements AgentToolHandler {
  handle() {
    return { value: 'x'.repeat(FIVE_MB) };
  }
}

@Module({ providers: [ThrowingTool, HangingTool, HangingDefaultTool, HugeTool] })
class MisbehavingToolsModule {}

describe('code tools that throw, hang or flood', () => {
  let mod: TestingModule;
  let prisma: PrismaService;
  let current: LoadedAgent;
  const env = loadWorkerEnv({ ...process.env, QUEUE_PREFIX: unique('sbt-tools'), TOOL_TIMEOUT_MS: '500' });

  beforeAll(async () => {
    mod = await Test.createTestingModule({
      imports: [
        WorkerEnvModule.forRoot(env),
        DbModule.forRoot({ url: env.DATABASE_URL }),
        RedisModule,
        ToolsModule,
        MisbehavingToolsModule,
      ],
      providers: [
        CommitTurn,
        LoadTurnState,
        SessionEvents,
        RunTurn,
        AgentModelHealth,
        TenantQuotas,
        { provide: AgentCatalog, useValue: { forAgent: async () => current } },
        { provide: WakeScheduler, useValue: { schedule: async () => undefined } },
      ],
    }).compile();
    await mod.init();
    prisma = mod.get(PrismaService);
  });

  afterAll(async () => {
    await mod.close();
  });

  it('lets the model read each failure and still commits the turn with a trace of what it read', async () => {
    const toolIds = ['quebra', 'trava', 'trava_padrao', 'enorme'];
    // Round 1 calls every tool at once; round 2 answers from what the tools returned.
    const provider = new ScriptedProvider((req) =>
      req.history.some((h: HistoryItem) => h.role === 'tool')
        ? { text: 'Desculpe, tive problemas com as ferramentas.' }
        : { text: null, toolCalls: toolIds.map((name) => ({ name, arguments: {} })) },
    );
    const config = parseAgentConfig({ provider: { kind: 'scripted', model: 'scripted' }, fields: {}, flows: [], tools: toolIds });
    current = {
      agentId: 'tools-test',
      version: 1,
      config,
      agent: buildEngineAgent<TurnContext>(config, {
        tools: mod.get(ToolRegistry).forAllowList(toolIds),
        provider,
        name: 'Ferramentas',
        store: hostStore,
      }),
      provider: { name: provider.name, model: provider.model },
    };
    const rows = await createSessionRows(prisma);
    const [m1] = await queueInbound(prisma, rows, ['quanto custa?']);
    const message = await prisma.message.findUniqueOrThrow({ where: { id: m1 } });

    const started = Date.now();
    const committed = await mod.get(RunTurn).execute(rows.tenantId, rows.sessionId, { kind: 'messages', messages: [message] });
    expect(committed).not.toBeNull();
    // Bounded by the longest limit (500 ms), not by the hanging handlers; generous for a loaded machine.
    expect(Date.now() - started).toBeLessThan(20_000);

    const msgs = await prisma.message.findMany({ where: { sessionId: rows.sessionId }, orderBy: { seq: 'asc' } });
    expect(msgs.map((m) => [m.direction, m.status, m.text])).toEqual([
      ['inbound', 'answered', 'quanto custa?'],
      ['outbound', 'sent', 'Desculpe, tive problemas com as ferramentas.'],
    ]);

    const turn = await prisma.turn.findFirstOrThrow({ where: { sessionId: rows.sessionId } });
    const tools = (turn.trace as unknown as ToolTrace[]).filter((t) => t.type === 'tool');
    const read = Object.fromEntries(tools.map((t) => [t.tool, t]));
    expect(read.quebra).toMatchObject({ gate: 'threw', result: JSON.stringify({ error: 'tabela de preços indisponível' }) });
    expect(read.trava).toMatchObject({ gate: 'threw', result: JSON.stringify({ error: 'Tool "trava" timed out after 300 ms' }) });
    expect(read.trava_padrao).toMatchObject({
      gate: 'threw',
      result: JSON.stringify({ error: 'Tool "trava_padrao" timed out after 500 ms' }),
    });
    expect(read.enorme.gate).toBe('ok');
    // The model read a cut value: the first 2 000 chars plus the engine's truncation note, not 5 MB.
    expect(read.enorme.result).toBe(`${'x'.repeat(2_000)}[truncated: ${FIVE_MB} chars total, showing the first 2000]`);

    // What the trace says the model read is what the provider was actually sent.
    const secondCall = provider.requests.find((r) => r.history.some((h) => h.role === 'tool'))!;
    const sent = secondCall.history.flatMap((h) => (h.role === 'tool' ? [[h.name, h.content]] : []));
    expect(Object.fromEntries(sent)).toEqual(Object.fromEntries(tools.map((t) => [t.tool, t.result])));
  });
});
