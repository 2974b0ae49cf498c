import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import { REFERENCE_SCHEMAS_ID, referenceSchemas, type ReferenceSchemaName } from './reference-schemas.js'

/**
 * Checks response bodies against the reference's schemas (reference-schemas.ts) and words every violation
 * with the JSON Pointer of the field at fault, as a generated client would report it.
 */

const ajv = new Ajv({ allErrors: true, strict: false })
addFormats.default(ajv)
ajv.addSchema(referenceSchemas)

function validatorOf(name: ReferenceSchemaName) {
  const validate = ajv.getSchema(`${REFERENCE_SCHEMAS_ID}#/definitions/${name}`)
  if (!validate) throw new Error(`No reference schema ${name}`)
  return validate
}

function valueAt(body: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, segment) => (value as Record<string, unknown> | undefined)?.[segment.replaceAll('~1', '/').replaceAll('~0', '~')], body)
}

function describe(error: ErrorObject, body: unknown, at: string): string {
  if (error.keyword === 'required') return `${at}${error.instancePath}/${String(error.params.missingProperty)}: required, missing`
  const actual = JSON.stringify(valueAt(body, error.instancePath))
  const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as string[]).join(', ')})` : ''
  return `${at}${error.instancePath || '/'}: ${error.message ?? 'is invalid'}${allowed}, got ${actual}`
}

/** Every violation of `body` against the reference schema `name`; `at` prefixes the paths (e.g. /items/3). */
export function violationsOf(name: ReferenceSchemaName, body: unknown, at = ''): string[] {
  const validate = validatorOf(name)
  if (validate(body)) return []
  // An if/then's own error only repeats what the branch's errors already say.
  return (validate.errors ?? []).filter((error) => error.keyword !== 'if').map((error) => describe(error, body, at))
}

/** A list page: the ListResponse envelope, then each item against `item`. */
export function listViolationsOf(item: ReferenceSchemaName, body: unknown): string[] {
  const envelope = violationsOf('ListResponse', body)
  const items = (body as { items?: unknown }).items
  if (!Array.isArray(items)) return envelope
  return [...envelope, ...items.flatMap((entry, index) => violationsOf(item, entry, `/items/${index}`))]
}
