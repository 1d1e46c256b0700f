import { Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { ActionCtx, Run } from '@falai/agent';
import type { TurnContext } from '../tools/agent-tool.decorator';
import { AgentAction, type AgentActionCtx, type AgentActionHandler } from './agent-action.decorator';
import { ActionRegistry, DuplicateActionNameError } from './action-registry';
import { ActionsModule } from './actions.module';
import { bookingCode } from './builtin/confirm-booking.action';

@AgentAction({ name: 'anotar', params: { type: 'object', properties: { nota: { type: 'string' } } } })
class AnotarAction implements AgentActionHandler {
  seen: AgentActionCtx[] = [];
  handle(params: Record<string, unknown>, ctx: AgentActionCtx) {
    this.seen.push(ctx);
    return { ok: true as const, data: { nota: params.nota } };
  }
}

@Module({ providers: [AnotarAction] })
class ExtraActionsModule {}

@AgentAction({ name: 'anotar' })
class OutraAnotar implements AgentActionHandler {
  handle() {
    return { skipped: 'nada' };
  }
}

@Module({ providers: [OutraAnotar] })
class ClashingModule {}

const run: Run = {
  id: 'confirmar#k1',
  flowId: 'confirmar',
  stepId: 'reserva',
  status: 'running',
  asked: {},
  visits: { reserva: 1 },
  startedAt: '2026-12-02T13:00:00.000Z',
  outcomes: [],
};

function ctx(data: Record<string, unknown> = {}): ActionCtx<TurnContext> {
  return {
    key: 'confirmar#k1:reserva:1',
    sessionId: 's1',
    context: { tenantId: 't1', sessionId: 's1', turnId: 'turn-1' },
    data,
    run,
    now: new Date('2026-12-02T13:00:00Z'),
  };
}

describe('ActionRegistry', () => {
  async function registry(...extra: (new () => unknown)[]): Promise<ActionRegistry> {
    const mod = await Test.createTestingModule({ imports: [ActionsModule, ...extra] }).compile();
    await mod.init();
    return mod.get(ActionRegistry);
  }

  it('finds @AgentAction providers in any module, with their params, beside the built-in confirm_booking', async () => {
    const reg = await registry(ExtraActionsModule);
    expect(reg.list().map((a) => a.name).sort()).toEqual(['anotar', 'confirm_booking']);
    const anotar = reg.engineActions().find((a) => a.name === 'anotar')!;
    expect(anotar.params).toEqual({ type: 'object', properties: { nota: { type: 'string' } } });
  });

  it("passes the engine's step key to the handler as its idempotency key", async () => {
    const mod = await Test.createTestingModule({ imports: [ActionsModule, ExtraActionsModule] }).compile();
    await mod.init();
    const anotar = mod.get(ActionRegistry).engineActions().find((a) => a.name === 'anotar')!;
    expect(await anotar.handler({ nota: 'x' }, ctx())).toEqual({ ok: true, data: { nota: 'x' } });
    expect(mod.get(AnotarAction).seen[0]).toMatchObject({ key: 'confirmar#k1:reserva:1', idempotencyKey: 'confirmar#k1:reserva:1' });
  });

  it('refuses two actions with one name', async () => {
    await expect(registry(ExtraActionsModule, ClashingModule)).rejects.toThrow(DuplicateActionNameError);
  });
});

describe('confirm_booking', () => {
  async function confirm() {
    const mod = await Test.createTestingModule({ imports: [ActionsModule] }).compile();
    await mod.init();
    return mod.get(ActionRegistry).engineActions().find((a) => a.name === 'confirm_booking')!;
  }

  it('books once per step visit: the code derives from the idempotency key', async () => {
    const action = await confirm();
    const code = bookingCode('confirmar#k1:reserva:1');
    expect(code).toMatch(/^RES-[0-9A-Z]+$/);
    expect(await action.handler({ cidade: 'Lisboa' }, ctx())).toEqual({
      ok: true,
      data: { reserva: code },
      spoke: `Reserva confirmada em Lisboa. Código: ${code}.`,
    });
    expect(await action.handler({ cidade: 'Lisboa' }, ctx())).toEqual(await action.handler({ cidade: 'Lisboa' }, ctx()));
  });

  it('skips when a booking is already known, and fails without a city', async () => {
    const action = await confirm();
    expect(await action.handler({ cidade: 'Lisboa' }, ctx({ reserva: 'RES-1' }))).toEqual({ skipped: 'already booked (RES-1)' });
    expect(await action.handler({ cidade: '  ' }, ctx())).toEqual({ failed: 'no city to book in' });
  });
});
