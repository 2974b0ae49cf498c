import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { IBANS } from '../support/fixtures.js'
import type { JsonSchema } from './openapi-operations.js'

/**
 * Values that satisfy a request schema of docs/openapi.json, and that also make sense to the service
 * often enough to get past validation into the rules behind it: ids the server gave out, the bank's
 * business date, real IBANs and currencies. The near-valid bodies of body-mutations.ts start from these.
 */

export interface Vocabulary {
  /** Ids seen in answers for a field of this name, else every id seen. */
  idsFor(field: string): readonly string[]
  externalIds: readonly string[]
  /** The sandbox bank's business date, yyyy-mm-dd: payment dates near it pass the date-window checks. */
  today: string
  /** Where webhooks may be sent (names the suite's stub DNS resolves to a public address). */
  webhookUrls: readonly string[]
}

/** The longest string or list a valid value gets: long enough to cover the shapes, short enough to stay fast. */
const SMALL = 24

function addDays(date: string, days: number): string {
  const next = new Date(`${date}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + days)
  return next.toISOString().slice(0, 10)
}

/** Field-name knowledge the schemas cannot carry: what an IBAN, a currency, a webhook URL or a directory looks like. */
function hinted(field: string, schema: JsonSchema, vocabulary: Vocabulary): fc.Arbitrary<unknown> | undefined {
  if (schema.type === 'string') {
    if (field === 'number' || field === 'iban') return fc.constantFrom(...Object.values(IBANS))
    if (field === 'currency') return fc.constantFrom('EUR', 'EUR', 'SEK', 'USD')
    if (field === 'market' || field === 'country') return fc.constantFrom('DE', 'SE', 'NL', 'FR', 'GB')
    if (field === 'url') return fc.constantFrom(...vocabulary.webhookUrls)
    if (field === 'scheme' && !schema.enum) return fc.constantFrom('SCT', 'SCT_INST')
    // A connection's directories are created on the server's disk: only ever under the temporary directory.
    if (field === 'outboxDir' || field === 'inboxDir') return fc.stringMatching(/^[a-z]{1,8}$/).map((name) => join(tmpdir(), 'kassa-fuzz', name))
    if (field === 'externalId') return fc.oneof(fc.stringMatching(/^[a-z0-9]{1,12}$/), fc.constantFrom(...vocabulary.externalIds, 'x'))
  }
  if (schema.type === 'integer') {
    // The idempotency test sleeps this long; the sandbox clock moves this many days: small keeps the run fast.
    if (field === 'sleep') return fc.integer({ min: 0, max: 20 })
    if (field === 'days') return fc.integer({ min: 0, max: 3 })
    if (field === 'value') return fc.integer({ min: 1, max: 10_000_000 })
  }
  return undefined
}

function stringValue(field: string, schema: JsonSchema, vocabulary: Vocabulary): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? SMALL, SMALL))
  switch (schema.format) {
    case 'uuid': {
      const known = vocabulary.idsFor(field)
      return known.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...known), weight: 4 }, fc.uuid({ version: 7 })) : fc.uuid({ version: 7 })
    }
    case 'date':
      return fc.integer({ min: -3, max: 10 }).map((days) => addDays(vocabulary.today, days))
    case 'date-time':
      return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((date) => date.toISOString())
    case 'email':
      return fc.stringMatching(/^[a-z]{1,10}$/).map((local) => `${local}@example.com`)
  }
  if (schema.pattern) {
    return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length >= minLength && text.length <= (schema.maxLength ?? Infinity))
  }
  return fc.string({ minLength, maxLength })
}

function objectValue(schema: JsonSchema, vocabulary: Vocabulary): fc.Arbitrary<unknown> {
  const properties = schema.properties ?? {}
  const record = fc.record(
    Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, validValue(property, vocabulary, name)])),
    { requiredKeys: (schema.required ?? []).filter((name) => name in properties) },
  )
  const extra = schema.additionalProperties
  if (typeof extra !== 'object') return record
  // A free-form map such as metadata: keys of letters, digits and _ . + - (the resource schemas say so).
  const entries = fc.dictionary(fc.stringMatching(/^[a-zA-Z0-9_.+-]{1,16}$/), validValue(extra, vocabulary, 'value'), {
    maxKeys: Math.min(schema.maxProperties ?? 3, 3),
  })
  return fc.tuple(record, entries).map(([known, free]) => ({ ...free, ...(known as object) }))
}

function arrayValue(schema: JsonSchema, vocabulary: Vocabulary, field: string): fc.Arbitrary<unknown> {
  const item = validValue(schema.items ?? {}, vocabulary, field)
  const minLength = schema.minItems ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, 3))
  return schema.uniqueItems ? fc.uniqueArray(item, { minLength, maxLength, selector: (value) => JSON.stringify(value) }) : fc.array(item, { minLength, maxLength })
}

/** A value valid under `schema`; `field` is the name it goes under, for the hints above. */
export function validValue(schema: JsonSchema, vocabulary: Vocabulary, field = ''): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum)
  if ('const' in schema) return fc.constant(schema.const)
  const branches = schema.anyOf ?? schema.oneOf
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, vocabulary, field)))
  const hint = hinted(field, schema, vocabulary)
  if (hint) return hint
  switch (schema.type) {
    case 'string':
      return stringValue(field, schema, vocabulary)
    case 'integer':
      return fc.integer({ min: schema.minimum ?? -1_000_000, max: schema.maximum ?? 1_000_000 })
    case 'number':
      return fc.double({ min: schema.minimum ?? -1e6, max: schema.maximum ?? 1e6, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'object':
      return objectValue(schema, vocabulary)
    case 'array':
      return arrayValue(schema, vocabulary, field)
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** A valid value: the document's example (where it gives one) as often as a generated one. */
export function validBody(schema: JsonSchema, vocabulary: Vocabulary, example: unknown): fc.Arbitrary<unknown> {
  const generated = validValue(schema, vocabulary)
  return example === undefined ? generated : fc.oneof(generated, fc.constant(example))
}
