import fc from 'fast-check';

// Building blocks of hostile input, from the list in issue #10: wrong types, huge strings and
// arrays, deep nesting, invalid UTF-8, prototype keys, injection strings, numbers at the edges.

export const INJECTIONS = [
  "' OR '1'='1",
  "'; DROP TABLE \"Tenant\"; --",
  '1; SELECT pg_sleep(10)--',
  '" OR ""="',
  '$1',
  '{{7*7}}',
  '${7*7}',
  '<%= 7*7 %>',
  '#{7*7}',
  '{{constructor.constructor("return process")()}}',
  '<script>alert(1)</script>',
  '../../../../etc/passwd',
  '%2e%2e%2f%2e%2e%2f',
  '\u0000',
  'a\u0000b',
  '\ud800', // lone surrogate
  '\u202e', // right-to-left override
  '{"$gt":""}',
  '__proto__',
  'constructor',
  'prototype',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '9007199254740993',
  '0x7fffffff',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  ' ',
  '',
] as const;

/**
 * Text Postgres cannot store (issue #16): a NUL anywhere, and lone UTF-16 surrogates, which the
 * driver would silently write as U+FFFD. Every route must answer 400 `invalid-characters`.
 */
export const UNSTORABLE_TEXT = ['\u0000', 'a\u0000b', '\u0000'.repeat(64), '\ud800', '\udfff', 'a\ud800b', 'x\udbff', '\udc00\ud800', '😀\ud83d', 'ok\u0000😀'] as const;

/**
 * Dates at and past the edges of what Postgres stores (no year 0; `timestamptz` runs from
 * 4713 BC to 294276 AD, the driver writes years past 9999 as `+010000-…`), and ones Date.parse
 * reads loosely. Filters must answer 400 `invalid-filter`, never 500.
 */
export const EDGE_DATES = [
  '0000-01-01',
  '0000-12-31T23:59:59.999Z',
  '0001-01-01T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '-271821-04-20T00:00:00.000Z',
  '+275760-09-13T00:00:00.000Z',
  '+010000-01-01T00:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '294277-01-01',
  '4713-01-01 BC',
  'infinity',
  '-infinity',
  'epoch',
  '2026-02-30',
  '2026-13-01',
  '1',
  '-1',
  '1e21',
] as const;

/** URLs carrying credentials in their userinfo, and other shapes a URL field must not echo back. */
export const USERINFO_URLS = [
  'https://user:pass@example.com/hook',
  'https://:s3cret@example.com/',
  'https://token@example.com/hook',
  'http://admin:admin@127.0.0.1:8080/',
  'https://user%40corp:p%3Ass@example.com/',
  'https://a:b@c:d@example.com/',
  'https://example.com@evil.example/',
  'https://user:pass@[::1]/',
] as const;

export const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__'] as const;

export const EDGE_NUMBERS = [0, -0, -1, 1, 0.5, -2147483649, 2147483648, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1e308, -1e308, 5e-324, 1e21] as const;

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...INJECTIONS) },
  { weight: 1, arbitrary: fc.constantFrom(...UNSTORABLE_TEXT) },
  { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom(...UNSTORABLE_TEXT)).map(([a, b]) => a + b) },
  { weight: 1, arbitrary: fc.constantFrom(...EDGE_DATES) },
  { weight: 1, arbitrary: fc.constantFrom(...USERINFO_URLS) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constantFrom(...INJECTIONS).map((s) => s.repeat(2000)) }, // ~4-100 KB
  { weight: 1, arbitrary: fc.nat({ max: 70_000 }).map((n) => 'x'.repeat(n)) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(fc.constantFrom(...EDGE_NUMBERS), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.integer());

/** `{"a":{"a":...}}` or `[[[...]]]` nested `depth` times. */
export function deepNesting(depth: number, array: boolean): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = array ? [v] : { a: v };
  return v;
}

const leaf: fc.Arbitrary<unknown> = fc.oneof(hostileString, hostileNumber, fc.boolean(), fc.constant(null));

/** Small JSON values nested a few levels, with prototype keys among the object keys. */
const structured: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    { weight: 4, arbitrary: leaf },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 3 }) },
    {
      weight: 1,
      arbitrary: fc.dictionary(fc.oneof(fc.constantFrom(...PROTOTYPE_KEYS), fc.constantFrom(...UNSTORABLE_TEXT), fc.string({ maxLength: 10 })), tie('value'), { maxKeys: 3 }),
    },
  ),
})).value;

/** Any JSON value, weighted towards the shapes that break parsers: deep nesting, huge arrays. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: structured },
  // Built once: generating them per case would cost more than sending them.
  { weight: 1, arbitrary: fc.constantFrom(...[64, 1000, 3000].flatMap((d) => [deepNesting(d, false), deepNesting(d, true)])) },
  { weight: 1, arbitrary: fc.constantFrom(...[1000, 10_000].map((n) => Array.from({ length: n }, (_, i) => i))) },
);

/** A key no route declares: prototype keys, injection strings, or long random names. */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS),
  fc.constantFrom(...INJECTIONS).filter((s) => s !== ''),
  fc.string({ minLength: 24, maxLength: 60 }),
);

/** A value of a JSON type different from `like`'s, so a strict schema must refuse it. */
export function otherTypeThan(like: unknown): fc.Arbitrary<unknown> {
  const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);
  return hostileValue.filter((v) => kind(v) !== kind(like) && v !== null);
}

/** Raw request bodies that are not a JSON object at all (sent as bytes). */
export const rawBadBody: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom('', ' ', '{', '{"a":', '[1,2', 'nul', '{"a":1}}', "{'a':1}", '{"a":1,}', 'NaN', '\u0000'),
  fc.constantFrom('null', '[]', '"text"', '1', 'true', '[{"a":1}]'),
  // Invalid UTF-8: lone continuation bytes, overlong encodings, truncated sequences.
  fc.constantFrom(Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]), Buffer.from([0xff, 0xfe, 0xfd]), Buffer.from('{"a":"\xc0\xaf"}', 'latin1'), Buffer.from([0x7b, 0xe2, 0x82])),
  // Over the 128 KB body limit.
  fc.constantFrom(`{"text":"${'x'.repeat(140_000)}"}`, `[${'1,'.repeat(80_000)}1]`),
  fc.string({ unit: 'binary', maxLength: 60 }),
);

/** Big JSON texts for query values, built once. */
const JSON_TEXTS = [JSON.stringify(deepNesting(500, false)), JSON.stringify(deepNesting(500, true)), JSON.stringify(Array.from({ length: 1000 }, (_, i) => i))];

/** react-admin's date filters (every list with dates has them) with a date at Postgres' edges. */
const edgeDateFilter: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom('createdAt_gte', 'createdAt_lte'), fc.constantFrom(...EDGE_DATES))
  .map(([key, date]) => JSON.stringify({ [key]: date }));

/** A query string: repeated keys, hostile values, JSON in react-admin's filter/sort/range. */
export const hostileQuery: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      {
        weight: 5,
        arbitrary: fc.tuple(
          fc.oneof(fc.constantFrom('filter', 'sort', 'range', 'page', 'perPage', 'limit', 'after', 'from', 'to', 'agentId', 'wait', 'q', 'id'), unknownKey),
          fc.oneof(hostileString, structured.map((v) => JSON.stringify(v) ?? 'null'), fc.constantFrom(...JSON_TEXTS)),
        ),
      },
      { weight: 1, arbitrary: fc.tuple(fc.constant('filter'), edgeDateFilter) },
    ),
    { maxLength: 4 },
  )
  .map((pairs) => pairs.map(([k, v]) => `${percentEncode(k)}=${percentEncode(v.slice(0, 5000))}`).join('&'));

/** A path parameter: random ids (absent), hostile strings, or raw bad percent-encodings. */
export const hostileId: fc.Arbitrary<string> = fc.oneof(
  fc.uuid().map((u) => u),
  hostileString.map((s) => percentEncode(s.slice(0, 3000))),
  fc.constantFrom('%', '%E0%A4%A', '%C0%AF', '..%2F..%2F', '2130706433', '-1', '0', '1e309', '00000000-0000-0000-0000-000000000000', 'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF'),
);

/** encodeURIComponent for any string: lone surrogates (which it refuses) become U+FFFD first. */
export function percentEncode(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));
}

export type Headers = Record<string, string | string[]>;

/** Authorization as a client might get it wrong: missing, doubled, malformed, or right. */
export function hostileAuth(valid: string): fc.Arbitrary<Headers> {
  return fc.oneof(
    { weight: 6, arbitrary: fc.constant<Headers>({ authorization: `Bearer ${valid}` }) },
    { weight: 1, arbitrary: fc.constant<Headers>({}) },
    { weight: 1, arbitrary: fc.constant<Headers>({ authorization: [`Bearer ${valid}`, `Bearer ${valid}`] }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Basic YTpi', `bearer  ${valid}x`, `Bearer ${valid.slice(0, -2)}`, 'Bearer a.b.c', `Bearer ${'a'.repeat(9000)}`).map((v) => ({ authorization: v })),
    },
    { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0x21, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 80 }).map((v) => ({ authorization: v })) },
  );
}

/** Content-Type and other headers: missing, wrong, doubled. */
export const hostileContentType: fc.Arbitrary<Headers> = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Headers>({ 'content-type': 'application/json' }) },
  {
    weight: 2,
    arbitrary: fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/json; charset=latin1', 'application/xml', 'application/json, text/plain', '*/*', ';;;')
      .map((ct) => ({ 'content-type': ct })),
  },
  { weight: 1, arbitrary: fc.constant<Headers>({ 'content-type': ['application/json', 'text/plain'] }) },
  { weight: 1, arbitrary: fc.constant<Headers>({}) },
);
