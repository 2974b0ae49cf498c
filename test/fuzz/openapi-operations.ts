import { readFileSync } from 'node:fs'

/**
 * The operations of docs/openapi.json as the fuzz suite drives them: every method and path, the
 * parameters and the request body schema with every `$ref` resolved. The suite generates its requests
 * from these, so an operation added to the API is fuzzed without a line of test code.
 */

/** A JSON Schema as the OpenAPI document holds it (TypeBox output): only the keywords the generators read. */
export interface JsonSchema {
  type?: string
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  maxProperties?: number
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  uniqueItems?: boolean
  minLength?: number
  maxLength?: number
  pattern?: string
  format?: string
  minimum?: number
  maximum?: number
}

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface Parameter {
  name: string
  required: boolean
  schema: JsonSchema
}

export interface Operation {
  method: Method
  /** The path template, e.g. `/payments/v2/credit-transfers/{id}:approve`. */
  path: string
  pathParams: string[]
  query: Parameter[]
  /** Header parameters the operation declares: `if-match`, `Idempotency-Key`. */
  headers: Parameter[]
  /** The request body: its media types, the schema and the example the document gives (of the first type). */
  body?: { required: boolean; contentTypes: string[]; schema: JsonSchema; example?: unknown }
  /** The resource a GET of the same path answers with, when there is one: its fields and whether it has an etag. */
  resource?: JsonSchema
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']

/** `#/components/parameters/IdempotencyKey` → the object at that JSON Pointer (RFC 6901) of the document. */
function pointerTarget(document: unknown, ref: string): unknown {
  let node = document
  for (const raw of ref.replace(/^#\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    node = (node as Record<string, unknown>)[key]
  }
  return node
}

/** A copy of `node` with every `{$ref}` replaced by what it points to (the document has no cycles). */
function resolved(document: unknown, node: unknown, depth = 0): unknown {
  if (depth > 64) throw new Error('openapi.json: $ref chain too deep')
  if (Array.isArray(node)) return node.map((item) => resolved(document, item, depth + 1))
  if (node === null || typeof node !== 'object') return node
  const ref = (node as { $ref?: unknown }).$ref
  if (typeof ref === 'string') return resolved(document, pointerTarget(document, ref), depth + 1)
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, resolved(document, value, depth + 1)]))
}

interface RawParameter extends Parameter {
  in: 'path' | 'query' | 'header'
}

interface RawOperation {
  parameters?: RawParameter[]
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> }
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>
}

function parameters(operation: RawOperation, where: RawParameter['in']): Parameter[] {
  return (operation.parameters ?? [])
    .filter((parameter) => parameter.in === where)
    .map(({ name, required, schema }) => ({ name, required: required === true, schema }))
}

export function loadOperations(file = new URL('../../docs/openapi.json', import.meta.url)): Operation[] {
  return operationsOf(JSON.parse(readFileSync(file, 'utf8')))
}

/** The operations of an OpenAPI document already read: the committed file's, or the one a running app serves. */
export function operationsOf(document: unknown): Operation[] {
  const paths = resolved(document, (document as { paths: unknown }).paths) as Record<string, Record<string, RawOperation>>
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(paths)) {
    const read = item.get?.responses['200']?.content?.['application/json']?.schema
    for (const method of METHODS) {
      const operation = item[method.toLowerCase()]
      if (!operation) continue
      const content = operation.requestBody?.content
      const [firstType] = Object.keys(content ?? {})
      operations.push({
        method,
        path,
        pathParams: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!),
        query: parameters(operation, 'query'),
        headers: parameters(operation, 'header'),
        ...(content && firstType
          ? {
              body: {
                required: operation.requestBody?.required === true,
                contentTypes: Object.keys(content),
                schema: content[firstType]!.schema,
                ...('example' in content[firstType]! ? { example: content[firstType]!.example } : {}),
              },
            }
          : {}),
        ...(read && path.includes('{') ? { resource: read } : {}),
      })
    }
  }
  return operations
}

/** Whether the resource carries an etag, so that PATCH and DELETE on it need If-Match (spec: Request headers). */
export function hasEtag(operation: Operation): boolean {
  return operation.resource?.properties?.etag !== undefined
}

/** `/iam/v2/users/{id}/access-keys` for the `keyId` of `/iam/v2/users/{id}/access-keys/{keyId}`: where that id is listed. */
export function collectionOf(path: string, param: string): string {
  const index = path.indexOf(`{${param}}`)
  return path.slice(0, index).replace(/\/$/, '')
}
