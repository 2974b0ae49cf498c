import { Ajv, type AnySchema, type ErrorObject, type Options, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance } from 'fastify'

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, ...options })
  addFormats.default(ajv)
  return ajv
}

/**
 * The JSON Pointer of the first string holding U+0000, if any. The pointer is built only on the way back from that
 * string: a body without one, every body but a hostile one, costs no string per field (issue 14).
 */
function nulPointer(value: unknown): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? '' : undefined
  if (typeof value !== 'object' || value === null) return undefined
  for (const name in value) {
    const found = nulPointer((value as Record<string, unknown>)[name])
    if (found !== undefined) return `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}${found}`
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
 * AJV checks `uniqueItems` by comparing every pair of items unless the item schema declares a scalar
 * `type`, when it uses a hash: 100,000 permission names once took 41 s of CPU (issue 9). Every schema
 * is checked when its route is compiled, so a new one cannot bring the quadratic check back.
 * @throws Error at start, naming the schema, for an array with uniqueItems over items without a type.
 */
function assertLinearUniqueItems(schema: unknown, where: string): void {
  if (typeof schema !== 'object' || schema === null) return
  const node = schema as Record<string, unknown>
  if (node.uniqueItems === true) {
    const items = node.items as Record<string, unknown> | undefined
    if (typeof items?.type !== 'string') throw new Error(`${where}: uniqueItems needs items with a scalar type (AJV would compare every pair)`)
  }
  for (const [name, child] of Object.entries(node)) {
    if (Array.isArray(child)) child.forEach((item, index) => assertLinearUniqueItems(item, `${where}.${name}.${index}`))
    else assertLinearUniqueItems(child, `${where}.${name}`)
  }
}

/**
 * A query parameter the route does not know is a 400 naming it, as an unknown body field is: a
 * misspelt filter (`acountId=…`) would otherwise be ignored and answer unfiltered data (issue 10).
 */
function closedObject(schema: AnySchema): AnySchema {
  if (typeof schema !== 'object' || schema.type !== 'object' || schema.additionalProperties !== undefined) return schema
  return { ...schema, additionalProperties: false }
}

const BODY_OPTIONS: Options = { allErrors: true, coerceTypes: false, removeAdditional: false, useDefaults: false }

/**
 * A JSON value checked as a request body is (below): for what arrives inside one and is judged on its own, such as
 * the records of a credit transfer batch. Its `errors` feed validationDetails (error-handler.ts).
 */
export function bodyValidator(schema: AnySchema): ValidateFunction {
  return refusingNul(createAjv(BODY_OPTIONS).compile(schema))
}

/**
 * Bodies are validated strictly: no type coercion (a money amount "5" is not 5), no defaults
 * filled in, and unknown fields are rejected rather than silently dropped (issue #2: unknown fields).
 * Query strings and path parameters arrive as text, so there integers are coerced from their digits.
 */
export function registerValidation(app: FastifyInstance): void {
  // A route that takes no query parameters refuses any, as routes with a query schema refuse unknown ones.
  app.addHook('onRoute', (route) => {
    route.schema = { ...route.schema, querystring: route.schema?.querystring ?? { type: 'object', properties: {} } }
  })
  const bodyAjv = createAjv(BODY_OPTIONS)
  const textAjv = createAjv({ allErrors: false, coerceTypes: 'array', removeAdditional: false, useDefaults: true })
  app.setValidatorCompiler(({ schema, httpPart, method, url }) => {
    assertLinearUniqueItems(schema, `${method} ${url} ${httpPart ?? ''}`)
    const ajv = httpPart === 'body' ? bodyAjv : textAjv
    return refusingNul(ajv.compile(httpPart === 'querystring' ? closedObject(schema as AnySchema) : schema))
  })
}
