import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, ...options })
  addFormats.default(ajv)
  return ajv
}

/** The JSON Pointer of the first string holding U+0000, if any. */
function nulPointer(value: unknown, pointer = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? pointer : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const [name, child] of Object.entries(value)) {
    const found = nulPointer(child, `${pointer}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)
    if (found !== undefined) return found
  }
  return undefined
}

/**
 * PostgreSQL text cannot hold U+0000, so a string with it would be a driver error there and
 * stored as is on SQLite. It is refused on both as the 400 of the field that holds it.
 */
function refusingNul(validate: ValidateFunction): ValidateFunction {
  const checked = ((data: unknown) => {
    if (!validate(data)) {
      checked.errors = validate.errors
      return false
    }
    const instancePath = nulPointer(data)
    if (instancePath === undefined) return true
    const error: ErrorObject = { keyword: 'nul', instancePath, schemaPath: '', params: {}, message: 'must not contain U+0000' }
    checked.errors = [error]
    return false
  }) as ValidateFunction
  return checked
}

/**
 * Bodies are validated strictly: no type coercion (a money amount "5" is not 5), no defaults
 * filled in, and unknown fields are rejected rather than silently dropped (issue #2: unknown fields).
 * Query strings and path parameters arrive as text, so there integers are coerced from their digits.
 */
export function registerValidation(app: FastifyInstance): void {
  const bodyAjv = createAjv({ allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false })
  const textAjv = createAjv({ allErrors: false, coerceTypes: 'array', removeAdditional: false, useDefaults: true })
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv
    return refusingNul(ajv.compile(schema))
  })
}
