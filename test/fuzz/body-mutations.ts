import fc from 'fast-check'
import { extraKey, hostileValue } from './hostile-values.js'
import { manyFields, manyItems, objectWith, raw } from './json-text.js'
import type { JsonSchema } from './openapi-operations.js'
import { validBody, validValue, type Vocabulary } from './schema-values.js'

/**
 * Near-valid bodies: a valid value with one to three mutations at random places — a field dropped
 * (required ones too), a value of the wrong type or a hostile one, an extra field. They get past the
 * parser and usually past most of validation, which is where the interesting answers are.
 */

type Mutation = { at: number; kind: 'drop' } | { at: number; kind: 'replace'; value: unknown } | { at: number; kind: 'extra'; key: string; value: unknown }

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ at: fc.nat(), kind: fc.constant('drop' as const) }),
  { arbitrary: fc.record({ at: fc.nat(), kind: fc.constant('replace' as const), value: hostileValue }), weight: 3 },
  fc.record({ at: fc.nat(), kind: fc.constant('extra' as const), key: extraKey, value: hostileValue }),
)

type Slot = { parent: Record<string, unknown> | unknown[]; key: string | number } | { parent: undefined; key: undefined }

/** Every place in `value` a mutation may touch, the root first. */
function slots(value: unknown): Slot[] {
  const found: Slot[] = [{ parent: undefined, key: undefined }]
  const visit = (node: unknown) => {
    if (node === null || typeof node !== 'object' || !(Array.isArray(node) || Object.getPrototypeOf(node) === Object.prototype)) return
    for (const [key, child] of Object.entries(node)) {
      found.push({ parent: node as Record<string, unknown>, key: Array.isArray(node) ? Number(key) : key })
      visit(child)
    }
  }
  visit(value)
  return found
}

function valueAt(root: unknown, slot: Slot): unknown {
  return slot.parent === undefined ? root : (slot.parent as Record<string | number, unknown>)[slot.key]
}

function setAt(root: unknown, slot: Slot, value: unknown): unknown {
  if (slot.parent === undefined) return value
  ;(slot.parent as Record<string | number, unknown>)[slot.key] = value
  return root
}

function apply(root: unknown, change: Mutation): unknown {
  const all = slots(root)
  const slot = all[change.at % all.length]!
  switch (change.kind) {
    case 'drop':
      if (slot.parent === undefined) return raw('')
      if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1)
      else delete slot.parent[slot.key as string]
      return root
    case 'replace':
      return setAt(root, slot, detached(change.value))
    case 'extra': {
      const target = valueAt(root, slot)
      const base = target !== null && typeof target === 'object' && !Array.isArray(target) ? (target as Record<string, unknown>) : {}
      return setAt(root, slot, objectWith(base, change.key, detached(change.value)))
    }
  }
}

/** A mutable copy of plain arrays and objects (generated values are shared with fast-check's shrinker). */
function detached(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(detached)
  if (value === null || typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return value
  const copy: Record<string, unknown> = {}
  for (const [key, member] of Object.entries(value)) Object.defineProperty(copy, key, { value: detached(member), enumerable: true, writable: true, configurable: true })
  return copy
}

/** A valid body (generated, or the document's example) with one to three mutations. */
export function nearValid(schema: JsonSchema, vocabulary: Vocabulary, example?: unknown): fc.Arbitrary<unknown> {
  return fc
    .tuple(validBody(schema, vocabulary, example), fc.array(mutation, { minLength: 1, maxLength: 3 }))
    .map(([value, mutations]) => mutations.reduce(apply, detached(value)))
}

/**
 * A valid value with every list in it replaced by thousands of invalid items, or an object of
 * thousands of unknown fields: each is an error of its own, and the error body must stay bounded
 * (issue 9: 100,000 bad permission names answered a 92 MB validation error).
 */
export function floodedBody(schema: JsonSchema, vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  return fc
    .tuple(validValue(schema, vocabulary), fc.constantFrom(1_000, 10_000, 100_000), fc.constantFrom<unknown>('x', 1, null, {}), fc.boolean())
    .map(([value, count, item, fields]) => {
      let root = detached(value)
      const lists = slots(root).filter((slot) => Array.isArray(valueAt(root, slot)))
      if (fields || lists.length === 0) return manyFields(count)
      for (const slot of lists) root = setAt(root, slot, manyItems(count, item))
      return root
    })
}
