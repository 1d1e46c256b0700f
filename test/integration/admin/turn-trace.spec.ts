import type { PrismaClient } from '@switchboard/db';
import { adminGet, createSession, createTurn, errorOf, openDb, tenantWithUsers } from './support/admin-fixtures';

// The single-turn read carries what happened inside the turn (model and tool calls, outcomes);
// lists stay lean, and another tenant's turn stays "not found".

jest.setTimeout(60_000);

const TRACE = [
  { type: 'model', call: 'speak', round: 0, ms: 410, usage: { inputTokens: 900, outputTokens: 40 } },
  { type: 'tool', round: 0, index: 0, id: 'call-0-0', tool: 'preco', arguments: { cidade: 'Curitiba' }, gate: 'ok', result: '{"diaria":320}', ms: 35 },
  { type: 'model', call: 'speak', round: 1, ms: 380, usage: { inputTokens: 950, outputTokens: 22 } },
];
const OUTCOMES = [{ flowId: 'hospedagem', stepId: 'oferta', kind: 'prompt', status: 'ok', code: 'spoke', at: '2026-12-02T10:00:00.000Z' }];

let db: PrismaClient;
let world: Awaited<ReturnType<typeof tenantWithUsers<'viewer'>>>;
let other: Awaited<ReturnType<typeof tenantWithUsers<'owner'>>>;
let turnId: string;

beforeAll(async () => {
  db = openDb();
  world = await tenantWithUsers(db, ['viewer'] as const);
  other = await tenantWithUsers(db, ['owner'] as const);
  const session = await createSession(db, world);
  const turn = await createTurn(db, world, session.id, { llmCalls: 2, inputTokens: 1850, outputTokens: 62, outcomeCodes: ['spoke'] });
  await db.turn.update({ where: { id: turn.id }, data: { trace: TRACE, outcomes: OUTCOMES, modelMs: 790, toolsMs: 35 } });
  turnId = turn.id;
});
afterAll(() => db.$disconnect());

describe('a turn with its trace', () => {
  it('is read whole by any tenant role: model calls, tool calls with arguments and results, outcomes, timing', async () => {
    const res = await adminGet(world.tokens.viewer, `/v1/admin/turns/${turnId}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: turnId, llmCalls: 2, inputTokens: 1850, outputTokens: 62, modelMs: 790, toolsMs: 35, trace: TRACE, outcomes: OUTCOMES });
  });

  it('is left out of list answers', async () => {
    const res = await adminGet(world.tokens.viewer, '/v1/admin/turns', { filter: { id: turnId } });
    expect(res.status).toBe(200);
    const [row] = res.body as Record<string, unknown>[];
    expect(row).toMatchObject({ id: turnId, llmCalls: 2 });
    expect(row).not.toHaveProperty('trace');
    expect(row).not.toHaveProperty('outcomes');
  });

  it('is not found for another tenant', async () => {
    const res = await adminGet(other.tokens.owner, `/v1/admin/turns/${turnId}`);
    expect(res.status).toBe(404);
    expect(errorOf(res.body).code).toBe('not-found');
  });
});
