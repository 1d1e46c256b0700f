import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, MINIMAL_AGENT_CONFIG, type TenantFixture } from '../support/fixtures';
import { PROTOTYPE_KEYS } from './support/hostile';
import { startInProcessApi, type InProcessApi } from './support/in-process-api';

jest.setTimeout(120_000);

// Issue #16 item 13: `data: {"__proto__": …}` on POST /v1/events was dropped silently (zod never
// copies a __proto__ key) while `constructor` and `toString` answered 422 unknown-field. Every
// prototype key is now refused the same way, and nothing is stored.

let api: InProcessApi;
let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  fx = await createTenantFixture(prisma, { agentConfig: { ...MINIMAL_AGENT_CONFIG, fields: { cidade: { type: 'string' } } } as typeof MINIMAL_AGENT_CONFIG });
  api = await startInProcessApi();
});
afterAll(async () => {
  await api?.close();
  await prisma?.$disconnect();
});

it.each(PROTOTYPE_KEYS)('answers data.%s with 422 invalid-event-data, issue unknown-field, storing nothing', async (key) => {
  const session = `proto-${uniqueSuffix()}`;
  // Raw JSON: an object literal's __proto__ would set the prototype rather than send the key.
  const payload = `{"session":"${session}","event":"pedido.enviado","key":"k-${key}","data":{"${key}":"x","cidade":"Rio"}}`;
  const res = await api.inject({ method: 'POST', url: '/v1/events', headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' }, payload });
  expect(res.statusCode).toBe(422);
  expect(res.json()).toEqual({
    error: {
      code: 'invalid-event-data',
      message: expect.stringContaining(`data.${key} (unknown-field)`),
      details: [{ location: 'body', path: `data.${key}`, issue: 'unknown-field', message: `The agent has no field "${key}".` }],
    },
  });
  expect(await prisma.session.count({ where: { channelId: fx.channel.id, externalKey: session } })).toBe(0);
});

it('still accepts data naming only the agent’s fields', async () => {
  const payload = JSON.stringify({ session: `proto-ok-${uniqueSuffix()}`, event: 'pedido.enviado', key: 'ok', data: { cidade: 'Rio' } });
  const res = await api.inject({ method: 'POST', url: '/v1/events', headers: { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' }, payload });
  expect(res.statusCode).toBe(202);
});
