import fc from 'fast-check'
import { hostileValue } from './hostile-values.js'
import { manyItems, nested, objectWith, Repeated } from './json-text.js'
import type { JsonSchema } from './openapi-operations.js'
import { validValue, type Vocabulary } from './schema-values.js'

/**
 * JSON Patch documents (RFC 6902) for a resource: operations on the pointers its GET schema shows
 * (editable or not — the whitelist decides), with fitting or hostile values, plus what a hostile
 * client sends instead: odd pointers (RFC 6901 escapes, `-`, huge indices, `__proto__`), values
 * nested 100,000 deep, 10,000 operations, documents that are not a list at all.
 */

interface Target {
  pointer: string
  schema: JsonSchema
}

function escaped(name: string): string {
  return name.replace(/~/g, '~0').replace(/\//g, '~1')
}

/** Every pointer into the resource down to three levels: `/legalName`, `/accounts/0/alias`, `/metadata/note`. */
function targets(schema: JsonSchema, prefix = '', depth = 0): Target[] {
  const found: Target[] = []
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const pointer = `${prefix}/${escaped(name)}`
    found.push({ pointer, schema: property })
    if (depth >= 2) continue
    if (property.type === 'object') found.push(...targets(property, pointer, depth + 1))
    if (property.type === 'array' && property.items) {
      found.push({ pointer: `${pointer}/-`, schema: property.items }, { pointer: `${pointer}/0`, schema: property.items })
      found.push(...targets(property.items, `${pointer}/0`, depth + 1))
    }
  }
  if (typeof schema.additionalProperties === 'object') found.push({ pointer: `${prefix}/note`, schema: schema.additionalProperties })
  return found
}

const oddPointer: fc.Arbitrary<string | Repeated> = fc.oneof(
  fc.constantFrom('', '/', '//', '~', '/~2', '/a~', '/~01', '/__proto__', '/__proto__/polluted', '/constructor/prototype/polluted', '/-', 'legalName'),
  fc.constantFrom('/accounts/-', '/accounts/99999999999999999999', '/accounts/-1', '/accounts/01', '/accounts/1e3', '/metadata/', '/metadata/__proto__', '/%00', '/\u0000'),
  fc.constant(new Repeated('/a', 5_000)),
)

const OPERATIONS = ['add', 'remove', 'replace', 'move', 'copy', 'test'] as const

function operation(all: Target[], vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  const pointer = fc.oneof({ arbitrary: fc.constantFrom(...all.map((target) => target.pointer)), weight: 4 }, oddPointer)
  return fc
    .tuple(fc.constantFrom(...all), fc.oneof({ arbitrary: fc.constant('replace' as const), weight: 3 }, fc.constantFrom(...OPERATIONS)))
    .chain(([target, op]) =>
      fc.record(
        {
          op: fc.oneof({ arbitrary: fc.constant<unknown>(op), weight: 12 }, fc.constantFrom<unknown>('merge', '', 'REPLACE', null, 1)),
          path: fc.oneof({ arbitrary: fc.constant(target.pointer), weight: 6 }, oddPointer),
          value: fc.oneof({ arbitrary: validValue(target.schema, vocabulary, target.pointer.slice(target.pointer.lastIndexOf('/') + 1)), weight: 3 }, hostileValue),
          from: pointer,
          extra: fc.option(fc.constantFrom('__proto__', 'constructor', 'op2'), { freq: 10 }),
        },
        { requiredKeys: ['op', 'path'] },
      ),
    )
    .map(({ extra, ...rest }) => (extra ? objectWith(rest, extra, { polluted: true }) : rest))
}

/** A JSON Patch document for a resource of this (GET) schema. */
export function patchDocument(resource: JsonSchema, vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  const all = targets(resource)
  return fc.oneof(
    { arbitrary: fc.array(operation(all, vocabulary), { minLength: 1, maxLength: 4 }), weight: 10 },
    fc.constantFrom<unknown>([], {}, 'replace', null, [[]], [null], { op: 'replace', path: '/legalName', value: 'x' }),
    fc.constantFrom(101, 10_000).map((count) => manyItems(count, { op: 'test', path: all[0]?.pointer ?? '/id', value: 'x' })),
    fc
      .tuple(fc.constantFrom(...all.map((target) => target.pointer), '/metadata/x'), fc.constantFrom(33, 1_000, 8_000, 100_000), fc.constantFrom('array' as const, 'object' as const))
      .map(([path, depth, kind]) => [{ op: 'replace', path, value: nested(depth, kind) }]),
  )
}
