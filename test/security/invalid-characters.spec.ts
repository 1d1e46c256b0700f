import type { PrismaClient } from '@switchboard/db';
import { createTenantFixture, testPrisma, uniqueSuffix, type TenantFixture } from '../support/fixtures';
import { declaredRoutes, startInProcessApi, type InProcessApi } from './support/in-process-api';

jest.setTimeout(120_000);

// Issue #16 item 5: a NUL (U+0000) answered 500 on 12 routes, login's email among them, and a
// lone UTF-16 surrogate was stored as U+FFFD, so two session keys that differ only there became
// one conversation. One rule for every body, query, path and header value: 400
// `invalid-characters` naming the field, nothing stored.

let api: InProcessApi;
let prisma: PrismaClient;
let fx: TenantFixture;

beforeAll(async () => {
  prisma = testPrisma();
  fx = await createTenantFixture(prisma);
  api = await startInProcessApi();
});
afterAll(async () => {
  await api?.close();
  await prisma?.$disconnect();
});

type ErrorBody = { error?: { code?: string; message?: string; details?: { location?: string; path?: string; issue?: string }[] } };
const answer = (res: { statusCode: number; json(): unknown }) => {
  const body = res.json() as ErrorBody;
  const detail = body.error?.details?.[0];
  return `${res.statusCode} ${body.error?.code} ${detail?.location}.${detail?.path}`;
};

/** JSON text with `text` as the value of "probe", escaped as a client's JSON encoder writes it. */
const jsonWith = (field: string, escaped: string) => `{"${field}":"${escaped}"}`;

describe('on every route', () => {
  it('refuses a NUL in a query value, naming it', async () => {
    const wrong: string[] = [];
    for (const route of declaredRoutes(api.app)) {
      const url = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000') + '?probe=a%00b';
      const res = await api.inject({ method: route.method, url, headers: { authorization: `Bearer ${fx.apiKey}` } });
      if (answer(res) !== '400 invalid-characters query.probe') wrong.push(`${route.method} ${route.path} → ${answer(res)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('refuses a NUL in a path parameter, naming it', async () => {
    const wrong: string[] = [];
    for (const route of declaredRoutes(api.app).filter((r) => r.path.includes(':'))) {
      const name = /:(\w+)/.exec(route.path)![1];
      const url = route.path.replace(`:${name}`, 'a%00b').replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const res = await api.inject({ method: route.method, url, headers: { authorization: `Bearer ${fx.apiKey}` } });
      if (answer(res) !== `400 invalid-characters params.${name}`) wrong.push(`${route.method} ${route.path} → ${answer(res)}`);
    }
    expect(wrong).toEqual([]);
  });

  it.each([
    ['a NUL', 'a\\u0000b'],
    ['a lone high surrogate', 'a\\ud800b'],
    ['a lone low surrogate', '\\udc00'],
  ])('refuses %s in a body value or key, naming it', async (_what, escaped) => {
    const wrong: string[] = [];
    for (const route of declaredRoutes(api.app).filter((r) => r.method !== 'GET')) {
      const url = route.path.replace(/:(\w+)/g, '00000000-0000-4000-8000-000000000000');
      const headers = { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' };
      const inValue = await api.inject({ method: route.method, url, headers, payload: `{"outer":{"list":["ok",${JSON.stringify('x').slice(0, -1)}${escaped}"]}}` });
      if (answer(inValue) !== '400 invalid-characters body.outer.list.1') wrong.push(`${route.method} ${route.path} value → ${answer(inValue)}`);
      const inKey = await api.inject({ method: route.method, url, headers, payload: jsonWith(`k${escaped}`, 'v') });
      if (!answer(inKey).startsWith('400 invalid-characters body.k')) wrong.push(`${route.method} ${route.path} key → ${answer(inKey)}`);
    }
    expect(wrong).toEqual([]);
  });
});

it('refuses a NUL in a header value, naming the header', async () => {
  const res = await api.inject({ method: 'GET', url: '/v1/admin/agents', headers: { 'x-probe': 'a\u0000b' } });
  expect(answer(res)).toBe('400 invalid-characters headers.x-probe');
});

it('refuses a NUL in the unauthenticated login email with 400, not 500', async () => {
  const res = await api.inject({ method: 'POST', url: '/v1/admin/auth/login', headers: { 'content-type': 'application/json' }, payload: '{"email":"a\\u0000@x.example","password":"whatever-password"}' });
  expect(res.json()).toEqual({
    error: {
      code: 'invalid-characters',
      message: 'body.email contains a NUL character (U+0000); remove it and send the text again.',
      details: [{ location: 'body', path: 'email', issue: 'invalid-characters', message: 'body.email contains a NUL character (U+0000).' }],
    },
  });
  expect(res.statusCode).toBe(400);
});

it('never merges two session keys that differ only in a lone surrogate, and stores nothing', async () => {
  const base = `surrogate-${uniqueSuffix()}`;
  const headers = { authorization: `Bearer ${fx.apiKey}`, 'content-type': 'application/json' };
  const answers = [];
  for (const [session, id] of [[`${base}\\ud800`, `${base}-m\\udbff`], [`${base}\\udbff`, `${base}-m\\ud800`]]) {
    const res = await api.inject({ method: 'POST', url: '/v1/messages', headers, payload: `{"session":"${session}","text":"hi","id":"${id}"}` });
    answers.push(answer(res));
  }
  expect(answers).toEqual(['400 invalid-characters body.session', '400 invalid-characters body.session']);
  expect(await prisma.session.count({ where: { channelId: fx.channel.id, externalKey: { startsWith: base } } })).toBe(0);
  expect(await prisma.message.count({ where: { channelId: fx.channel.id, externalId: { startsWith: base } } })).toBe(0);
});

it('keeps text Postgres stores: emoji (surrogate pairs), other scripts, control characters but NUL', async () => {
  const session = `fine-${uniqueSuffix()}`;
  const text = 'Olá 😀 مرحبا \u0001\t\u202e';
  const res = await api.inject({ method: 'POST', url: '/v1/messages', headers: { authorization: `Bearer ${fx.apiKey}` }, payload: { session, text } });
  expect(res.statusCode).toBe(202);
  const { messageId } = res.json() as { messageId: string };
  expect((await prisma.message.findUniqueOrThrow({ where: { id: messageId } })).text).toBe(text);
});
