import fc from 'fast-check'
import { manyItems, nested, raw, Repeated } from './json-text.js'

/**
 * The values an attacker or a broken client puts where a field belongs: boundary lengths, numbers a
 * double cannot hold, NUL and lone surrogates, deep nesting, huge lists. Each is small to generate and
 * short to print; the big ones become their text only when the request is sent.
 */

/** Lengths around the limits the schemas use (64, 96, 140, 255, 512, 2048) and past the 1 MiB body limit. */
const LENGTHS = [33, 35, 36, 64, 65, 96, 97, 140, 141, 255, 256, 257, 500, 501, 512, 513, 2048, 2049, 70_000, 1_100_000]

export const hostileString: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\ud800',
    '\udfff\ud800',
    '\u202eevil',
    '\u2028\u2029',
    '\ufeffbom',
    'e\u0301\u0301\u0301',
    '🙂🙂🙂',
    '  padded  ',
    "' OR '1'='1",
    "'; DROP TABLE counterparties; --",
    '<script>alert(1)</script>',
    '../../../../etc/passwd',
    '%00%2F..%2F',
    '${jndi:ldap://127.0.0.1/x}',
    '{{7*7}}',
    '__proto__',
    'constructor',
    'null',
    'NaN',
    '-0',
    '1e400',
    'version:1',
    'external:',
    '0000-00-00',
    '2026-02-30',
    '9999-12-31',
    '2026-1-1',
    'EUR ',
    'eur',
  ),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...LENGTHS).chain((length) => fc.constantFrom('x', 'é', '🙂', ' ').map((unit) => new Repeated(unit, length))),
)

export const hostileNumber: fc.Arbitrary<unknown> = fc.constantFrom(
  0,
  -1,
  1,
  0.5,
  -0.01,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 53 - 1,
  -(2 ** 63),
  1e308,
  -1e308,
  5e-324,
  raw('-0'),
  raw('9007199254740993'),
  raw('123456789012345678901234567890'),
  raw('1e400'),
  raw('-1e400'),
  raw('1.0'),
  raw('1E3'),
)

/** A hostile value of any JSON kind. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: hostileString, weight: 4 },
  { arbitrary: hostileNumber, weight: 3 },
  fc.constantFrom(null, true, false, [], {}, [null], { '': '' }, ['x']),
  fc.constantFrom(33, 100, 1_000, 8_000, 100_000).chain((depth) => fc.constantFrom(nested(depth, 'array'), nested(depth, 'object'))),
  fc.constantFrom(101, 1_000, 10_000, 100_000).chain((count) => fc.constantFrom('x', 1, null, {}, 'not-a-permission').map((item) => manyItems(count, item))),
  fc.constantFrom(
    raw('{"__proto__":{"polluted":true}}'),
    raw('{"constructor":{"prototype":{"polluted":true}}}'),
    raw('{"a":1,"a":2}'),
  ),
  fc.jsonValue({ maxDepth: 3 }),
)

/** Keys an extra field may have: prototype keys, the server's own fields, and anything. */
export const extraKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'id', 'organizationId', 'version', 'etag', 'status', 'created', 'deleted', ''),
  fc.string({ maxLength: 12 }),
)
