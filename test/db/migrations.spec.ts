import { Client } from 'pg';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

it('the migrated test database has every table of the first migration', async () => {
  const c = new Client({ connectionString: process.env.DATABASE_URL });
  await c.connect();
  const { rows } = await c.query<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' order by 1",
  );
  await c.end();
  expect(rows.map((r) => r.table_name)).toEqual(
    expect.arrayContaining(['Tenant', 'User', 'Agent', 'AgentVersion', 'Channel', 'ApiKey', 'Session', 'Message', 'Turn']),
  );
});
