// Fields: the named values a session collects (engine.md §1).

export type FieldType = 'string' | 'number' | 'integer' | 'boolean';

/** A value a field may hold once coerced. */
export type FieldValue = string | number | boolean;

export interface FieldDef {
  type: FieldType;
  /** Allowed values; a reported value outside the list is dropped (`not-in-enum`). */
  enum?: readonly FieldValue[];
  /** Reaches the model, with `type` and `enum`. */
  description?: string;
  /** For people (console, transcripts); never sent to the model. */
  label?: string;
  /** How the speak call should ask while the field is missing. */
  ask?: string;
  /**
   * `anywhere`: the understand call may pick the value from any message.
   * `asked`: only while a step is asking for it. Default: `asked` for booleans, else `anywhere`.
   */
  extract?: 'anywhere' | 'asked';
}

export type FieldsDef = Readonly<Record<string, FieldDef>>;

type BaseValueOf<T extends FieldType> = T extends 'boolean' ? boolean : T extends 'string' ? string : number;

/** The TS type of one field: its enum's members when the enum is a literal tuple, else its base type. */
export type ValueOf<D extends FieldDef> = D extends { enum: readonly (infer E)[] }
  ? E extends FieldValue
    ? FieldValue extends E
      ? BaseValueOf<D['type']>
      : E & BaseValueOf<D['type']>
    : BaseValueOf<D['type']>
  : BaseValueOf<D['type']>;

/** Session data for a set of fields: every field optional, read-only. */
export type DataOfFields<F extends FieldsDef> = { readonly [K in keyof F]?: ValueOf<F[K]> };

/**
 * `DataOf<typeof f>` for a `falai().fields(...)` builder, or `DataOf<typeof fields>` for a
 * plain fields object.
 */
export type DataOf<T> = T extends { readonly fields: infer F extends FieldsDef }
  ? DataOfFields<F>
  : T extends FieldsDef
    ? DataOfFields<T>
    : never;

/** The slugs of a fields object, as a string union. */
export type SlugOf<F extends FieldsDef> = keyof F & string;
