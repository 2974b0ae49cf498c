import fc from 'fast-check'
import { hostileNumber, hostileString } from './hostile-values.js'
import { RawText, Repeated } from './json-text.js'
import type { Parameter } from './openapi-operations.js'
import { validValue, type Vocabulary } from './schema-values.js'

/**
 * The parts of a request besides its body, as fast-check values: path ids, query parameters,
 * credentials, If-Match, Idempotency-Key and stray headers. Choices that depend on the server's state
 * (a known id, the current etag) stay symbolic here and are resolved when the request is sent.
 */

export type Credential = 'owner' | 'admin' | 'readOnly' | 'otherOrganization'

export type AuthChoice =
  | { kind: 'key'; key: Credential }
  | { kind: 'wrongSecret'; key: Credential }
  | { kind: 'none' }
  | { kind: 'header'; value: string | Repeated }

export type IdChoice =
  | { kind: 'known'; index: number; upper: boolean }
  | { kind: 'external'; index: number }
  | { kind: 'text'; text: string | Repeated }

export type IfMatchChoice = { kind: 'current' } | { kind: 'none' } | { kind: 'text'; text: string | Repeated }

export interface QueryPart {
  key: string
  value: string | Repeated
  /** Sent as it is rather than percent-encoded: broken escapes and brackets. */
  raw: boolean
}

export type Body = { kind: 'json'; value: unknown } | { kind: 'text'; text: string | RawText | Repeated; latin1?: boolean }

/** encodeURIComponent, with lone surrogates (which it throws on) sent as U+FFFD, as a UTF-8 client would. */
export function percentEncoded(text: string): string {
  return encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'))
}

export const idChoice: fc.Arbitrary<IdChoice> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('known' as const), index: fc.nat(), upper: fc.boolean() }), weight: 8 },
  { arbitrary: fc.record({ kind: fc.constant('external' as const), index: fc.nat() }), weight: 2 },
  fc.record({ kind: fc.constant('text' as const), text: fc.uuid() }),
  fc.record({
    kind: fc.constant('text' as const),
    text: fc.oneof(
      fc.constantFrom('0', '-1', 'null', '%00', '%2F', '..', '.', '%2e%2e', '%20', '__proto__', 'constructor', 'external', 'external:', 'external:%00', 'external:a%2Fb'),
      fc.constantFrom('00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff', '{01900000-0000-7000-8000-000000000000}', '01900000000070008000000000000000'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map(percentEncoded),
      fc.stringMatching(/^[a-zA-Z0-9._\-+=]{65,70}$/).map((id) => `external:${id}`),
      fc.constantFrom(257, 4_096, 20_000).map((length) => new Repeated('a', length)),
    ),
  }),
)

/** A value for a declared query parameter: valid by its schema, or hostile. */
function parameterValue(parameter: Parameter, vocabulary: Vocabulary): fc.Arbitrary<string | Repeated> {
  const asText = (value: unknown): string | Repeated =>
    value instanceof Repeated ? value : typeof value === 'string' ? value : value instanceof RawText ? value.text() : JSON.stringify(value)
  return fc.oneof(
    { arbitrary: validValue(parameter.schema, vocabulary, parameter.name).map(asText), weight: 3 },
    fc.oneof(hostileString, hostileNumber).map(asText),
    fc.constantFrom('', 'true', '1.5', '-1', '1e3', '0x10', ' 1', '9'.repeat(30), 'eyJ9', 'eyJhIjoxfQ', 'v1.bad.token'),
  )
}

const strayQuery: fc.Arbitrary<QueryPart> = fc.oneof(
  fc.record({
    key: fc.constantFrom('__proto__[polluted]', 'constructor[prototype][polluted]', 'limit[]', 'limit', 'token', 'query', 'unknown', '', 'date[gt]', 'amount[gte]', 'status[]'),
    value: fc.oneof(fc.constantFrom('1', '', 'x', '-1', '1e400'), hostileString.map((value) => (value instanceof Repeated ? value : String(value)))),
    raw: fc.constant(false),
  }),
  fc.record({
    key: fc.constantFrom('limit', 'token', 'status', 'a'),
    value: fc.constantFrom('%', '%zz', '%00', '%C0%AF', '%FF%FE', '+', '[]', '[0]=1', '&&&', '==='),
    raw: fc.constant(true),
  }),
)

export function queryParts(parameters: Parameter[], vocabulary: Vocabulary): fc.Arbitrary<QueryPart[]> {
  const declared = parameters.map((parameter) =>
    fc.option(parameterValue(parameter, vocabulary).map((value): QueryPart => ({ key: parameter.name, value, raw: false })), { freq: 2 }),
  )
  return fc
    .tuple(fc.tuple(...declared), fc.array(strayQuery, { maxLength: 2 }))
    .map(([chosen, stray]) => [...chosen.filter((part): part is QueryPart => part !== null), ...stray])
}

const CREDENTIALS: Credential[] = ['owner', 'admin', 'readOnly', 'otherOrganization']

export const authChoice: fc.Arbitrary<AuthChoice> = fc.oneof(
  { arbitrary: fc.constant({ kind: 'key' as const, key: 'owner' as const }), weight: 12 },
  { arbitrary: fc.constantFrom(...CREDENTIALS).map((key) => ({ kind: 'key' as const, key })), weight: 4 },
  fc.constantFrom(...CREDENTIALS).map((key) => ({ kind: 'wrongSecret' as const, key })),
  fc.constant({ kind: 'none' as const }),
  fc.record({
    kind: fc.constant('header' as const),
    value: fc.oneof(
      fc.constantFrom('Basic', 'Basic ', 'Basic !!!!', 'Basic Og==', 'Basic bm9jb2xvbg==', 'Bearer x.y.z', 'basic YTpi', 'Basic  YTpi', 'Digest a=b', 'Basic w6k6w6k='),
      fc.string({ unit: 'binary', maxLength: 40 }).map((text) => `Basic ${Buffer.from(text).toString('base64')}`),
      fc.constantFrom(4_096, 20_000).map((length) => new Repeated('A', length)),
    ),
  }),
)

export function ifMatchChoice(expected: boolean): fc.Arbitrary<IfMatchChoice> {
  const literal = fc.record({
    kind: fc.constant('text' as const),
    text: fc.oneof(
      fc.constantFrom('version:0', 'version:1', 'version:2', 'version:999999', '*', '"version:1"', 'W/"version:1"', '', 'version:-1', 'version:01', 'version:1, version:2', 'version:1e3'),
      fc.string({ maxLength: 20 }),
      fc.constant(new Repeated('9', 10_000)),
    ),
  })
  return expected
    ? fc.oneof({ arbitrary: fc.constant({ kind: 'current' as const }), weight: 5 }, { arbitrary: fc.constant({ kind: 'none' as const }), weight: 2 }, { arbitrary: literal, weight: 2 })
    : fc.oneof({ arbitrary: fc.constant({ kind: 'none' as const }), weight: 8 }, literal)
}

export const idempotencyKey: fc.Arbitrary<string | Repeated | undefined> = fc.oneof(
  { arbitrary: fc.constant(undefined), weight: 6 },
  { arbitrary: fc.uuid(), weight: 2 },
  fc.constantFrom('fuzz-shared-1', 'fuzz-shared-2'),
  fc.oneof(fc.constantFrom('', ' ', 'a b', 'é', 'ключ'), fc.constantFrom(255, 256, 10_000).map((length) => new Repeated('k', length))),
)

/** Headers a client may add that no operation declares. */
export const strayHeaders: fc.Arbitrary<Record<string, string>> = fc
  .subarray(
    [
      ['accept', 'application/xml'],
      ['accept', 'text/html;q=0.1, */*;q=0'],
      ['x-http-method-override', 'DELETE'],
      ['content-encoding', 'gzip'],
      ['request-id', 'client-chosen'],
      ['x-forwarded-for', '127.0.0.1, 10.0.0.1'],
      ['host', 'evil.example'],
      ['if-none-match', '*'],
      ['range', 'bytes=0-1'],
      ['origin', 'https://evil.example'],
      ['cookie', 'kassa_session=forged; kassa_session=again'],
      ['x-csrf-token', 'forged'],
      ['transfer-encoding', 'chunked'],
      ['expect', 'x-unknown'],
      ['connection', 'close'],
    ] as const,
    { maxLength: 2 },
  )
  .map((pairs) => Object.fromEntries(pairs))

export const malformedJson: fc.Arbitrary<Body> = fc.oneof(
  fc
    .constantFrom('', ' ', '{', '{"a":', '[1,]', "{'a':1}", '{"a":1}garbage', '{"a":1}{"b":2}', 'NaN', 'undefined', '\ufeff{}', '/* c */{}', '{"a":01}')
    .map((text): Body => ({ kind: 'text', text })),
  fc.constantFrom('"just a string"', 'null', 'true', '0', '[]', '{}', '{"a":"\\ud800"}', '{"a":"\\u0000"}').map((text): Body => ({ kind: 'text', text })),
  fc.constantFrom('\xff\xfe{}', '{"a":"\xc3\x28"}', '{"\xe2\x82":1}').map((text): Body => ({ kind: 'text', text, latin1: true })),
  // Exactly the 1 MiB body limit, and one byte over.
  fc.constantFrom(1_048_576, 1_048_577).map((length): Body => ({ kind: 'text', text: new RawText(`a JSON string of ${length} bytes`, () => `"${'x'.repeat(length - 2)}"`) })),
)
