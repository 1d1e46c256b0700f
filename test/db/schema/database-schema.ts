import type { Client } from 'pg';
import type { ColumnShape, ForeignKeyShape, IndexShape, ReferentialAction, SchemaShape, TableShape } from './schema-shape';

// Reads what the migrations actually built, from information_schema and pg_catalog.

/** Tables that belong to tooling, not to the data model. */
const IGNORED_TABLES = new Set(['schema_migrations']);

const ACTIONS: Record<string, ReferentialAction> = { a: 'NoAction', r: 'Restrict', c: 'Cascade', n: 'SetNull', d: 'SetDefault' };

export async function databaseSchema(db: Client, schema = 'public'): Promise<SchemaShape> {
  const enumRows = await db.query<{ name: string; values: string[] }>(
    `SELECT t.typname AS name, array_agg(e.enumlabel ORDER BY e.enumsortorder)::text[] AS values
       FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname = $1 GROUP BY t.typname`,
    [schema],
  );
  const columnRows = await db.query<{
    table_name: string; column_name: string; udt_name: string; is_nullable: 'YES' | 'NO';
    column_default: string | null; datetime_precision: number | null; character_maximum_length: number | null;
  }>(
    `SELECT table_name, column_name, udt_name, is_nullable, column_default, datetime_precision, character_maximum_length
       FROM information_schema.columns WHERE table_schema = $1`,
    [schema],
  );
  const indexRows = await db.query<{ table: string; name: string; unique: boolean; primary: boolean; columns: string[] }>(
    `SELECT t.relname AS table, i.relname AS name, ix.indisunique AS unique, ix.indisprimary AS primary,
            -- An expression column (attnum 0) reads as its expression, e.g. lower(email).
            array(SELECT COALESCE(a.attname::text, pg_get_indexdef(ix.indexrelid, k.ord::int, true))
                    FROM unnest(ix.indkey::int2[]) WITH ORDINALITY k(attnum, ord)
                    LEFT JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum AND k.attnum <> 0 ORDER BY k.ord) AS columns
       FROM pg_index ix JOIN pg_class t ON t.oid = ix.indrelid JOIN pg_class i ON i.oid = ix.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE n.nspname = $1`,
    [schema],
  );
  const fkRows = await db.query<{
    table: string; name: string; columns: string[]; ref_table: string; ref_columns: string[]; on_delete: string; on_update: string;
  }>(
    `SELECT t.relname AS table, c.conname AS name, rt.relname AS ref_table,
            array(SELECT a.attname::text FROM unnest(c.conkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum ORDER BY k.ord) AS columns,
            array(SELECT a.attname::text FROM unnest(c.confkey) WITH ORDINALITY k(attnum, ord)
                  JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum ORDER BY k.ord) AS ref_columns,
            c.confdeltype AS on_delete, c.confupdtype AS on_update
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class rt ON rt.oid = c.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace WHERE c.contype = 'f' AND n.nspname = $1`,
    [schema],
  );

  const tables: Record<string, TableShape> = {};
  const table = (name: string) => (tables[name] ??= { columns: {}, indexes: {}, foreignKeys: {} });

  for (const r of columnRows.rows) {
    if (IGNORED_TABLES.has(r.table_name)) continue;
    table(r.table_name).columns[r.column_name] = {
      type: typeName(r.udt_name, r.datetime_precision, r.character_maximum_length),
      nullable: r.is_nullable === 'YES',
      hasDefault: r.column_default !== null,
    } satisfies ColumnShape;
  }
  for (const r of indexRows.rows) {
    if (IGNORED_TABLES.has(r.table)) continue;
    table(r.table).indexes[r.name] = { columns: r.columns, unique: r.unique, primary: r.primary } satisfies IndexShape;
  }
  for (const r of fkRows.rows) {
    if (IGNORED_TABLES.has(r.table)) continue;
    table(r.table).foreignKeys[r.name] = {
      columns: r.columns,
      references: { table: r.ref_table, columns: r.ref_columns },
      onDelete: ACTIONS[r.on_delete],
      onUpdate: ACTIONS[r.on_update],
    } satisfies ForeignKeyShape;
  }
  return { enums: Object.fromEntries(enumRows.rows.map((e) => [e.name, e.values])), tables };
}

function typeName(udt: string, precision: number | null, maxLength: number | null): string {
  if (udt === 'timestamptz' || udt === 'timestamp') return `${udt}(${precision})`;
  if (udt === 'varchar') return maxLength ? `varchar(${maxLength})` : 'varchar';
  return udt;
}
