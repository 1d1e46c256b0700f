import { readFileSync } from 'node:fs';
import path from 'node:path';
import { getDMMF } from '@prisma/get-dmmf';
import type { ColumnShape, ForeignKeyShape, IndexShape, ReferentialAction, SchemaShape, TableShape } from './schema-shape';

// Reads prisma/schema.prisma through Prisma's own parser (DMMF) and predicts the Postgres
// objects Prisma expects, with Prisma's naming and type conventions.

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: 'scalar' | 'enum' | 'object' | 'unsupported';
  type: string;
  isList: boolean;
  isRequired: boolean;
  hasDefaultValue: boolean;
  default?: unknown;
  nativeType?: [string, string[]] | null;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'normal' | 'unique' | 'fulltext';
  dbName?: string | null;
  fields: { name: string }[];
}
interface DmmfEnum {
  name: string;
  dbName?: string | null;
  values: { name: string; dbName: string | null }[];
}
interface Datamodel {
  models: DmmfModel[];
  enums: DmmfEnum[];
  indexes: DmmfIndex[];
}

export const SCHEMA_PATH = path.join(__dirname, '..', '..', '..', 'prisma', 'schema.prisma');

export function readDatamodel(schemaText = readFileSync(SCHEMA_PATH, 'utf8')): Datamodel {
  const result = getDMMF({ datamodel: schemaText });
  if ('type' in result && 'reason' in result) throw new Error(`schema.prisma does not parse: ${result.reason}`);
  return (result as unknown as { datamodel: Datamodel }).datamodel;
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'int4',
  BigInt: 'int8',
  Float: 'float8',
  Decimal: 'numeric',
  Boolean: 'bool',
  DateTime: 'timestamp(3)',
  Json: 'jsonb',
  Bytes: 'bytea',
};

const NATIVE_TYPES: Record<string, (args: string[]) => string> = {
  Uuid: () => 'uuid',
  Text: () => 'text',
  Timestamptz: (a) => `timestamptz(${a[0] ?? 3})`,
  Timestamp: (a) => `timestamp(${a[0] ?? 3})`,
  Date: () => 'date',
  Integer: () => 'int4',
  SmallInt: () => 'int2',
  BigInt: () => 'int8',
  JsonB: () => 'jsonb',
  Json: () => 'json',
  VarChar: (a) => (a[0] ? `varchar(${a[0]})` : 'varchar'),
  Citext: () => 'citext',
};

/**
 * Indexes schema.prisma cannot declare (Prisma has no expression indexes), written by hand in a
 * migration; each is named beside its model in schema.prisma.
 */
const HAND_WRITTEN_INDEXES: { table: string; name: string; index: IndexShape }[] = [
  { table: 'User', name: 'User_email_lower_key', index: { columns: ['lower(email)'], unique: true, primary: false } },
];

/** Defaults Prisma computes in the client (no database default). */
const CLIENT_SIDE_DEFAULTS = new Set(['uuid', 'cuid', 'nanoid', 'ulid']);

function columnType(field: DmmfField, enumNames: Map<string, string>): string {
  let base: string;
  if (field.kind === 'enum') base = enumNames.get(field.type) ?? field.type;
  else if (field.nativeType) {
    const [name, args] = field.nativeType;
    const map = NATIVE_TYPES[name];
    if (!map) throw new Error(`add native type @db.${name} to declared-schema.ts`);
    base = map(args);
  } else {
    base = SCALAR_TYPES[field.type];
    if (!base) throw new Error(`add Prisma type ${field.type} to declared-schema.ts`);
  }
  return field.isList ? `_${base}` : base;
}

function hasDatabaseDefault(field: DmmfField): boolean {
  if (!field.hasDefaultValue) return false;
  const d = field.default as { name?: string } | undefined;
  return !(d && typeof d === 'object' && !Array.isArray(d) && d.name && CLIENT_SIDE_DEFAULTS.has(d.name));
}

function action(value: string | undefined, fallback: ReferentialAction): ReferentialAction {
  return (value as ReferentialAction | undefined) ?? fallback;
}

export function declaredSchema(dm: Datamodel = readDatamodel()): SchemaShape {
  const enumNames = new Map(dm.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const enums = Object.fromEntries(dm.enums.map((e) => [e.dbName ?? e.name, e.values.map((v) => v.dbName ?? v.name)]));
  const tableOf = new Map(dm.models.map((m) => [m.name, m.dbName ?? m.name]));
  const tables: Record<string, TableShape> = {};

  for (const model of dm.models) {
    const table = tableOf.get(model.name)!;
    const col = new Map(model.fields.map((f) => [f.name, f.dbName ?? f.name]));
    const columns: Record<string, ColumnShape> = {};
    for (const f of model.fields) {
      if (f.kind !== 'scalar' && f.kind !== 'enum') continue;
      columns[col.get(f.name)!] = { type: columnType(f, enumNames), nullable: !f.isRequired, hasDefault: hasDatabaseDefault(f) };
    }

    const indexes: Record<string, IndexShape> = {};
    for (const idx of dm.indexes.filter((i) => i.model === model.name)) {
      const columnsOf = idx.fields.map((f) => col.get(f.name)!);
      const suffix = idx.type === 'id' ? 'pkey' : idx.type === 'unique' ? 'key' : 'idx';
      const name = idx.dbName ?? (idx.type === 'id' ? `${table}_pkey` : `${table}_${columnsOf.join('_')}_${suffix}`);
      indexes[name] = { columns: columnsOf, unique: idx.type !== 'normal', primary: idx.type === 'id' };
    }

    const foreignKeys: Record<string, ForeignKeyShape> = {};
    for (const f of model.fields) {
      if (f.kind !== 'object' || !f.relationFromFields?.length) continue;
      const target = dm.models.find((m) => m.name === f.type)!;
      const targetCol = new Map(target.fields.map((tf) => [tf.name, tf.dbName ?? tf.name]));
      const columnsOf = f.relationFromFields.map((n) => col.get(n)!);
      // Prisma's defaults: optional relations SET NULL, required ones RESTRICT; updates CASCADE.
      foreignKeys[`${table}_${columnsOf.join('_')}_fkey`] = {
        columns: columnsOf,
        references: { table: tableOf.get(target.name)!, columns: (f.relationToFields ?? []).map((n) => targetCol.get(n)!) },
        onDelete: action(f.relationOnDelete, f.isRequired ? 'Restrict' : 'SetNull'),
        onUpdate: action(f.relationOnUpdate, 'Cascade'),
      };
    }
    for (const h of HAND_WRITTEN_INDEXES.filter((i) => i.table === table)) indexes[h.name] = h.index;
    tables[table] = { columns, indexes, foreignKeys };
  }
  return { enums, tables };
}
