import type { PrismaClient } from '@switchboard/db';
import { createUser, openDb, PASSWORD } from '../integration/admin/support/admin-fixtures';
import { createAdminWorld } from '../integration/admin/support/admin-world';
import { PROTOTYPE_KEYS } from './support/hostile';
import { loginInProcess, startInProcessApi, type InProcessApi } from './support/in-process-api';

jest.setTimeout(120_000);

// Found by the fuzzer: `filter={"toString":true}` looked the key up on the filter table with its
// prototype, found Object.prototype.toString, and answered 500. Every list route, every key.

let api: InProcessApi;
let db: PrismaClient;
let token: string;

beforeAll(async () => {
  db = openDb();
  const w = await createAdminWorld(db);
  api = await startInProcessApi();
  token = await loginInProcess(api, (await createUser(db, 'owner', w.tenant)).email, PASSWORD);
});
afterAll(async () => {
  await api?.close();
  await db?.$disconnect();
});

it('answers 400 invalid-filter to a filter named after an Object.prototype member, on every list route', async () => {
  const lists = ['agents', 'channels', 'api-keys', 'provider-credentials', 'http-tools', 'tools', 'users', 'sessions', 'messages', 'turns', 'usage', 'usage/summary', 'usage/failures', 'audit-log'];
  const answers: string[] = [];
  for (const list of lists) {
    for (const key of PROTOTYPE_KEYS) {
      const filter = encodeURIComponent(JSON.stringify({ [key]: true }));
      const res = await api.inject({ method: 'GET', url: `/v1/admin/${list}?filter=${filter}`, headers: { authorization: `Bearer ${token}` } });
      answers.push(`${list} ${key} → ${res.statusCode} ${(res.json() as { error?: { code?: string } }).error?.code}`);
    }
  }
  expect(answers.filter((a) => !a.endsWith('→ 400 invalid-filter'))).toEqual([]);
});

// Issue #16 item 6: Postgres has no year 0 and refuses the driver's form of years past 9999, so
// these answered 500 on the six lists with a date filter.
const DATES_POSTGRES_REFUSES = ['0000-01-01', '-000001-01-01T00:00:00Z', '-271821-04-20T00:00:00Z', '+010000-01-01T00:00:00Z', '+275760-09-13T00:00:00Z'];

it('answers 400 invalid-filter to a date Postgres cannot store, on every list with a date filter', async () => {
  const lists = ['agents', 'deliveries', 'audit-log', 'sessions', 'messages', 'turns'];
  const answers: string[] = [];
  for (const list of lists) {
    for (const key of ['createdAt_gte', 'createdAt_lte']) {
      for (const date of DATES_POSTGRES_REFUSES) {
        const filter = encodeURIComponent(JSON.stringify({ [key]: date }));
        const res = await api.inject({ method: 'GET', url: `/v1/admin/${list}?filter=${filter}`, headers: { authorization: `Bearer ${token}` } });
        answers.push(`${list} ${key} ${date} → ${res.statusCode} ${(res.json() as { error?: { code?: string } }).error?.code}`);
      }
    }
  }
  // The usage lists filter whole days (YYYY-MM-DD): year 0 is the one such day Postgres lacks.
  for (const list of ['usage', 'usage/summary', 'usage/failures']) {
    for (const key of ['from', 'to']) {
      const filter = encodeURIComponent(JSON.stringify({ [key]: '0000-01-01' }));
      const res = await api.inject({ method: 'GET', url: `/v1/admin/${list}?filter=${filter}`, headers: { authorization: `Bearer ${token}` } });
      answers.push(`${list} ${key} 0000-01-01 → ${res.statusCode} ${(res.json() as { error?: { code?: string } }).error?.code}`);
    }
  }
  expect(answers.filter((a) => !a.endsWith('→ 400 invalid-filter'))).toEqual([]);
  // The edges Postgres does store still filter.
  const edges = encodeURIComponent(JSON.stringify({ createdAt_gte: '0001-01-01T00:00:00Z', createdAt_lte: '9999-12-31T23:59:59.999Z' }));
  const ok = await api.inject({ method: 'GET', url: `/v1/admin/sessions?filter=${edges}`, headers: { authorization: `Bearer ${token}` } });
  expect(ok.statusCode).toBe(200);
});
