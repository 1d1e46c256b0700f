import type { PrismaClient } from '@switchboard/db';
import { adminGet, adminSend, errorOf, openDb, tenantWithUsers, unique } from '../admin/support/admin-fixtures';

// Publishing checks `do` steps and predicates against the worker's registered actions and
// conditions (RegisteredAction, synced at worker start-up): an unknown one is a 422 with the
// engine's message and JSON path, and nothing is published.

jest.setTimeout(60_000);

let db: PrismaClient;
let owner: string;

const CONFIRM_PARAMS = { type: 'object', properties: { cidade: { type: 'string' } }, required: ['cidade'] };

const withSteps = (steps: unknown[]) => ({
  provider: { kind: 'scripted', model: 'scripted' },
  fields: { cidade: { type: 'string' }, reserva: { type: 'string' } },
  tools: [],
  flows: [{ id: 'confirmar', name: 'Confirmar', on: [{ event: 'reserva.pedida' }], steps }],
});

beforeAll(async () => {
  db = openDb();
  owner = (await tenantWithUsers(db, ['owner'] as const)).tokens.owner;
  // What a worker's start-up sync writes (the same values, so a running worker agrees).
  await db.registeredAction.upsert({
    where: { kind_name: { kind: 'action', name: 'confirm_booking' } },
    create: { kind: 'action', name: 'confirm_booking', params: CONFIRM_PARAMS },
    update: {},
  });
  await db.registeredAction.upsert({
    where: { kind_name: { kind: 'condition', name: 'business_hours' } },
    create: { kind: 'condition', name: 'business_hours' },
    update: {},
  });
});
afterAll(() => db.$disconnect());

async function publish(config: unknown) {
  const created = await adminSend(owner, 'POST', '/v1/admin/agents', { name: unique('acts'), config });
  expect(created.status).toBe(201);
  const agentId = (created.body as { id: string }).id;
  return { agentId, res: await adminSend(owner, 'POST', `/v1/admin/agents/${agentId}/publish`) };
}

describe('publishing flows that run actions', () => {
  it('publishes do steps and predicates naming registered actions and conditions', async () => {
    const { res } = await publish(
      withSteps([
        { id: 'horario', kind: 'if', if: 'business_hours', then: 'reserva', else: 'end' },
        { id: 'reserva', kind: 'do', do: 'confirm_booking', with: { cidade: 'Lisboa' } },
      ]),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ version: 1 });
  });

  it('answers 422 with the engine message and JSON path for an unknown action, and publishes nothing', async () => {
    const { agentId, res } = await publish(withSteps([{ id: 'foguete', kind: 'do', do: 'launch_rockets' }]));
    expect(res.status).toBe(422);
    const error = errorOf(res.body);
    expect(error.code).toBe('flow-configuration');
    expect(error.message).toContain('"launch_rockets"');
    expect(error.details).toMatchObject({ path: ['flows', 0, 'steps', 0, 'do'], engineCode: 'unknown-action' });
    expect(await db.agentVersion.count({ where: { agentId } })).toBe(0);
  });

  it("answers 422 for params the action's schema refuses, and for an unknown condition", async () => {
    const missing = await publish(withSteps([{ id: 'reserva', kind: 'do', do: 'confirm_booking', with: {} }]));
    expect(missing.res.status).toBe(422);
    expect(errorOf(missing.res.body).details).toMatchObject({ engineCode: 'missing-param' });

    const condition = await publish(withSteps([{ id: 'lua', kind: 'if', if: 'full_moon', then: 'end' }]));
    expect(condition.res.status).toBe(422);
    expect(errorOf(condition.res.body).details).toMatchObject({ engineCode: 'unknown-condition', path: ['flows', 0, 'steps', 0, 'if'] });
  });

  it("offers the registered actions and conditions in the editor's flow schema", async () => {
    const { agentId } = await publish(withSteps([{ id: 'oi', kind: 'say', say: 'Oi!' }]));
    const res = await adminGet(owner, '/v1/admin/flow-schema', { agentId });
    expect(res.status).toBe(200);
    const schema = JSON.stringify(res.body);
    expect(schema).toContain('"confirm_booking"');
    expect(schema).toContain('"business_hours"');
  });
});
