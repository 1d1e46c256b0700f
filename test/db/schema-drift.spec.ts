import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { databaseSchema } from './schema/database-schema';
import { declaredSchema, readDatamodel, SCHEMA_PATH } from './schema/declared-schema';
import { diffSchemas, type SchemaShape } from './schema/schema-shape';

// jest ignores testTimeout inside a project config; a loaded 2-core machine needs more than 5 s.
jest.setTimeout(30_000);

// prisma/schema.prisma is what the Prisma client believes; prisma/migrations/*.sql is what the
// database really is. Both are written by hand, so this test proves they agree: every table,
// column (type, nullability, default or not), enum, index (name, columns, unique) and foreign
// key (columns, target, referential actions).

let db: Client;
let actual: SchemaShape;

beforeAll(async () => {
  db = new Client({ connectionString: process.env.DATABASE_URL });
  await db.connect();
  actual = await databaseSchema(db);
});

afterAll(() => db.end());

describe('schema.prisma and the migrated database', () => {
  it('agree on every table, column, enum, index and foreign key', () => {
    expect(diffSchemas(declaredSchema(), actual)).toEqual([]);
  });

  it('the comparison covers every model of schema.prisma', () => {
    const models = readDatamodel().models.map((m) => m.dbName ?? m.name).sort();
    expect(Object.keys(actual.tables).sort()).toEqual(models);
    expect(models.length).toBeGreaterThanOrEqual(9);
  });
});

describe('the drift check notices', () => {
  const schemaText = readFileSync(SCHEMA_PATH, 'utf8');
  const declaredFrom = (text: string) => declaredSchema(readDatamodel(text));

  it('a column whose nullability differs', () => {
    const changed = schemaText.replace(/(\n\s+text\s+)String\n/, '$1String?\n');
    expect(changed).not.toBe(schemaText);
    expect(diffSchemas(declaredFrom(changed), actual)).toEqual(['Message.text nullable: schema true, database false']);
  });

  it('a field the migrations never created, and a missing index', () => {
    const changed = schemaText
      .replace(/model Tenant \{\n/, 'model Tenant {\n  plan String @default("free")\n')
      .replace('@@index([turnId])', '');
    expect(diffSchemas(declaredFrom(changed), actual)).toEqual([
      'index of Message Message_turnId_idx is in the database but not in schema.prisma',
      'column of Tenant plan is in schema.prisma but not in the database',
    ]);
  });

  it('a different type, enum value and referential action', () => {
    const changed = schemaText
      .replace(/(\n\s+llmCalls\s+)Int /, '$1BigInt ')
      .replace(/(enum SessionStatus \{\n\s+active\n\s+handed_off\n)/, '$1  closed\n')
      .replace(/(model Session \{[^}]*?channel\s+Channel\s+@relation\([^)]*onDelete: )Cascade/, '$1Restrict');
    const diff = diffSchemas(declaredFrom(changed), actual);
    expect(diff).toEqual(
      expect.arrayContaining([
        'Turn.llmCalls type: schema int8, database int4',
        'enum SessionStatus: schema has [active,handed_off,closed], database has [active,handed_off]',
        expect.stringMatching(/^foreign key Session_channelId_fkey: schema .*"onDelete":"Restrict"/),
      ]),
    );
    expect(diff).toHaveLength(3);
  });
});
