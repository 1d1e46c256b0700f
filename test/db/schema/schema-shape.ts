// One neutral description of a Postgres schema, built once from prisma/schema.prisma (what we
// declare) and once from the migrated database's catalog (what we have), so the two can be
// compared field by field.

export interface ColumnShape {
  /** Postgres type as the catalog spells it: text, uuid, int4, timestamptz(3), _text, "MessageStatus"… */
  type: string;
  nullable: boolean;
  hasDefault: boolean;
}

export interface IndexShape {
  columns: string[];
  unique: boolean;
  primary: boolean;
}

export interface ForeignKeyShape {
  columns: string[];
  references: { table: string; columns: string[] };
  onDelete: ReferentialAction;
  onUpdate: ReferentialAction;
}

export type ReferentialAction = 'Cascade' | 'Restrict' | 'NoAction' | 'SetNull' | 'SetDefault';

export interface TableShape {
  columns: Record<string, ColumnShape>;
  /** By index name (Prisma's default names: Model_pkey, Model_a_b_key, Model_a_b_idx). */
  indexes: Record<string, IndexShape>;
  /** By constraint name (Model_a_fkey). */
  foreignKeys: Record<string, ForeignKeyShape>;
}

export interface SchemaShape {
  enums: Record<string, string[]>;
  tables: Record<string, TableShape>;
}

/** Every difference, as readable lines; empty when the schemas agree. */
export function diffSchemas(declared: SchemaShape, actual: SchemaShape): string[] {
  const out: string[] = [];
  diffKeys('enum', declared.enums, actual.enums, out, (name, d, a) => {
    if (JSON.stringify(d) !== JSON.stringify(a)) out.push(`enum ${name}: schema has [${d}], database has [${a}]`);
  });
  diffKeys('table', declared.tables, actual.tables, out, (table, d, a) => {
    diffKeys(`column of ${table}`, d.columns, a.columns, out, (col, dc, ac) => {
      for (const k of ['type', 'nullable', 'hasDefault'] as const) {
        if (dc[k] !== ac[k]) out.push(`${table}.${col} ${k}: schema ${dc[k]}, database ${ac[k]}`);
      }
    });
    diffKeys(`index of ${table}`, d.indexes, a.indexes, out, (name, di, ai) => {
      if (JSON.stringify(di) !== JSON.stringify(ai)) out.push(`index ${name}: schema ${JSON.stringify(di)}, database ${JSON.stringify(ai)}`);
    });
    diffKeys(`foreign key of ${table}`, d.foreignKeys, a.foreignKeys, out, (name, df, af) => {
      if (JSON.stringify(df) !== JSON.stringify(af)) out.push(`foreign key ${name}: schema ${JSON.stringify(df)}, database ${JSON.stringify(af)}`);
    });
  });
  return out;
}

function diffKeys<T>(
  what: string,
  declared: Record<string, T>,
  actual: Record<string, T>,
  out: string[],
  both: (key: string, d: T, a: T) => void,
): void {
  for (const key of Object.keys(declared).sort()) {
    if (!(key in actual)) out.push(`${what} ${key} is in schema.prisma but not in the database`);
    else both(key, declared[key], actual[key]);
  }
  for (const key of Object.keys(actual).sort()) {
    if (!(key in declared)) out.push(`${what} ${key} is in the database but not in schema.prisma`);
  }
}
