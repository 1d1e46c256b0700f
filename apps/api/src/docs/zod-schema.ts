import { z } from 'zod';

/** A JSON Schema (2020-12, the dialect OpenAPI 3.1 uses) as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/**
 * An answer's `z.date()` is what JSON.stringify makes of a Date: an ISO 8601 string. So a handler
 * returning Prisma rows is typed by the same schema (`z.infer` gives Date) that documents it.
 */
function serializedDate(ctx: { zodSchema: unknown; jsonSchema: JsonSchema }): void {
  if ((ctx.zodSchema as { _zod: { def: { type: string } } })._zod.def.type !== 'date') return;
  ctx.jsonSchema.type = 'string';
  ctx.jsonSchema.format = 'date-time';
}

/**
 * Turns the zod schemas the routes validate with into schemas for the document. Definitions zod
 * puts under `$defs` (recursive or shared parts) move to `components.schemas`, because inside an
 * OpenAPI document `#/$defs/...` would point at the document's root, not at the schema.
 */
export class ZodSchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  /** `io: 'input'`: what a client may send (defaults optional, before transforms). */
  convert(schema: z.ZodType, name: string, io: 'input' | 'output' = 'input'): JsonSchema {
    const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any', override: io === 'output' ? serializedDate : undefined }) as JsonSchema;
    const { $schema: _dialect, $defs, ...rest } = json;
    const renamed = new Map<string, string>();
    for (const key of Object.keys(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      renamed.set(key, this.freeName(`${name}_${key}`));
    }
    const rewrite = (node: unknown): unknown => {
      if (Array.isArray(node)) return node.map(rewrite);
      if (!node || typeof node !== 'object') return node;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(node)) {
        if (k === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')) {
          out[k] = `#/components/schemas/${renamed.get(v.slice('#/$defs/'.length)) ?? v}`;
        } else if (k === '$ref' && v === '#') {
          out[k] = `#/components/schemas/${this.rootName(name, rest)}`;
        } else {
          out[k] = rewrite(v);
        }
      }
      return out;
    };
    for (const [key, def] of Object.entries(($defs as Record<string, JsonSchema> | undefined) ?? {})) {
      this.components[renamed.get(key)!] = rewrite(def) as JsonSchema;
    }
    return rewrite(rest) as JsonSchema;
  }

  // A schema that refers to itself as `#` becomes a component of its own.
  private rootName(name: string, schema: JsonSchema): string {
    if (!this.components[name]) this.components[name] = schema;
    return name;
  }

  private freeName(wanted: string): string {
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_');
    let candidate = base;
    for (let i = 2; this.components[candidate]; i += 1) candidate = `${base}_${i}`;
    return candidate;
  }
}
