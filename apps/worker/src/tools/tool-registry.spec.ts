import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Run, ToolCtx } from '@falai/agent';
import { AgentTool, type AgentToolCtx, type AgentToolHandler, type TurnContext } from './agent-tool.decorator';
import { DuplicateToolIdError, ToolRegistry } from './tool-registry';
import { ToolsModule } from './tools.module';

@Injectable()
class Greeter {
  greet(name: string): string {
    return `olá, ${name}`;
  }
}

@AgentTool({
  id: 'saudar',
  description: 'Cumprimenta.',
  parameters: { type: 'object', properties: { nome: { type: 'string' } }, required: ['nome'] },
  isConcurrencySafe: (input) => input.nome !== 'lento',
  maxResultSizeChars: 100,
})
class SaudarTool implements AgentToolHandler {
  seen: AgentToolCtx[] = [];
  constructor(private readonly greeter: Greeter) {}
  checkPermissions(input: Record<string, unknown>, ctx: AgentToolCtx) {
    return ctx.context.tenantId === 't1' ? { allowed: true } : { allowed: false, reason: `tenant ${ctx.context.tenantId}` };
  }
  handle(args: Record<string, unknown>, ctx: AgentToolCtx) {
    this.seen.push(ctx);
    return { value: this.greeter.greet(String(args.nome)) };
  }
}

@Module({ providers: [Greeter, SaudarTool] })
class ExtraToolsModule {}

const run: Run = {
  id: 'hospedagem#m1',
  flowId: 'hospedagem',
  stepId: 'confirma',
  status: 'running',
  asked: {},
  visits: { confirma: 1 },
  startedAt: '2026-12-02T13:00:00.000Z',
  outcomes: [],
};

function ctx(context: Partial<TurnContext> = {}, withRun = true): ToolCtx<TurnContext> {
  return {
    context: { tenantId: 't1', sessionId: 's1', turnId: 'turn-1', messageId: 'm1', ...context },
    data: {},
    history: [],
    run: withRun ? run : undefined,
    now: new Date('2026-12-02T13:00:00Z'),
  };
}

describe('ToolRegistry', () => {
  async function registry(): Promise<{ reg: ToolRegistry; saudar: SaudarTool }> {
    const mod = await Test.createTestingModule({ imports: [ToolsModule, ExtraToolsModule] }).compile();
    await mod.init();
    return { reg: mod.get(ToolRegistry), saudar: mod.get(SaudarTool) };
  }

  it('finds every @AgentTool provider, wherever its module, with its injected services', async () => {
    const { reg } = await registry();
    expect(reg.list().map((t) => [t.id, t.readOnly, t.destructive, t.provider]).sort()).toEqual([
      ['preco', true, false, 'PrecoTool'],
      ['reservar', false, true, 'ReservarTool'],
      ['saudar', false, false, 'SaudarTool'],
    ]);
    const [saudar] = reg.forAllowList(['saudar']);
    expect(await saudar.handler({ nome: 'Ana' }, ctx())).toEqual({ value: 'olá, Ana' });
  });

  it('gives an agent only the tools its allow-list names, in its order, skipping unknown ids', async () => {
    const { reg } = await registry();
    expect(reg.forAllowList(['reservar', 'nao-existe', 'preco', 'reservar']).map((t) => t.id)).toEqual([
      'reservar',
      'preco',
    ]);
    expect(reg.forAllowList([])).toEqual([]);
  });

  it('carries the decorator flags and the provider gates onto the engine tool', async () => {
    const { reg } = await registry();
    const [saudar, preco, reservar] = reg.forAllowList(['saudar', 'preco', 'reservar']);
    expect(saudar.isConcurrencySafe?.({ nome: 'x' })).toBe(true);
    expect(saudar.isConcurrencySafe?.({ nome: 'lento' })).toBe(false);
    expect(saudar.maxResultSizeChars).toBe(100);
    expect(saudar.isDestructive).toBeUndefined();
    expect(await saudar.checkPermissions?.({ nome: 'x' }, ctx({ tenantId: 't2' }))).toEqual({
      allowed: false,
      reason: 'tenant t2',
    });
    expect(preco.isReadOnly?.({})).toBe(true);
    expect(reservar.isDestructive?.({ cidade: 'Curitiba' })).toBe(true);
    expect(await reservar.validateInput?.({ cidade: '' }, ctx())).toEqual({ valid: false, error: 'Informe a cidade.' });
  });

  it('hands the handler the turn context and an idempotency key stable across replays', async () => {
    const { reg, saudar } = await registry();
    const [tool] = reg.forAllowList(['saudar']);
    await tool.handler({ nome: 'Ana' }, ctx({ turnId: 'turn-1' }));
    await tool.handler({ nome: 'Ana' }, ctx({ turnId: 'turn-2' }));
    await tool.handler({ nome: 'Bia' }, ctx());
    await tool.handler({ nome: 'Ana' }, ctx({}, false));
    const [first, replay, otherArgs, idle] = saudar.seen;
    expect(first.context).toEqual({ tenantId: 't1', sessionId: 's1', turnId: 'turn-1', messageId: 'm1' });
    expect(first.idempotencyKey).toMatch(/^s1:hospedagem#m1:confirma:1:saudar:[0-9a-f]{16}$/);
    expect(replay.idempotencyKey).toBe(first.idempotencyKey);
    expect(otherArgs.idempotencyKey).not.toBe(first.idempotencyKey);
    expect(idle.idempotencyKey).toMatch(/^s1:idle:m1:saudar:/);
  });

  it('refuses two tools with one id at start-up', async () => {
    @AgentTool({ id: 'preco' })
    class OtherPreco implements AgentToolHandler {
      handle() {
        return { value: 1 };
      }
    }
    const mod = await Test.createTestingModule({ imports: [ToolsModule], providers: [OtherPreco] }).compile();
    await expect(mod.init()).rejects.toThrow(DuplicateToolIdError);
  });
});

describe('built-in Concierge tools', () => {
  it('preco looks the city up in the price table, ignoring case and accents, with a default', async () => {
    const mod = await Test.createTestingModule({ imports: [ToolsModule] }).compile();
    await mod.init();
    const [preco] = mod.get(ToolRegistry).forAllowList(['preco']);
    expect(await preco.handler({ cidade: 'Curitiba' }, ctx())).toEqual({ value: { precoNoite: 420 } });
    expect(await preco.handler({ cidade: '  florianópolis ' }, ctx())).toEqual({ value: { precoNoite: 480 } });
    expect(await preco.handler({ cidade: 'Xique-Xique' }, ctx())).toEqual({ value: { precoNoite: 350 } });
  });

  it('reservar writes the same code into `reserva` when the turn is replayed', async () => {
    const mod = await Test.createTestingModule({ imports: [ToolsModule] }).compile();
    await mod.init();
    const [reservar] = mod.get(ToolRegistry).forAllowList(['reservar']);
    const a = await reservar.handler({ cidade: 'Curitiba' }, ctx({ turnId: 'turn-1' }));
    const b = await reservar.handler({ cidade: 'Curitiba' }, ctx({ turnId: 'turn-2' }));
    const c = await reservar.handler({ cidade: 'Curitiba' }, ctx({ messageId: 'm9' }, false));
    expect(a).toEqual({ value: { codigo: expect.stringMatching(/^RES-[0-9A-Z]+$/) }, data: { reserva: expect.any(String) } });
    expect((a as { data: { reserva: string } }).data.reserva).toBe((a as { value: { codigo: string } }).value.codigo);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });
});
