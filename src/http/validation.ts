import { Ajv, type Options } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, ...options })
  addFormats.default(ajv)
  return ajv
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
    return ajv.compile(schema)
  })
}
