import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import type { FastifyInstance, FastifySchema } from 'fastify'
import { ErrorEnvelope } from './errors.js'
import { JsonPatchOperation } from './json-patch.js'
import { markOptionalBody, noteOptionalBody } from './openapi-bodies.js'
import { TAGS } from './openapi-tags.js'
import { OPERATION_ID_PATTERN, openApiPath, operationIdOf } from './operation-ids.js'

/**
 * Headers and parameters every route shares, written once here and referenced from each operation,
 * so the document tells what the conventions do without each route repeating them.
 */
const HEADERS = {
  RequestId: {
    description: 'Unique identifier of the request; also in the error body (requestId) and in the logs.',
    schema: { type: 'string' },
  },
  RateLimitLimit: {
    description: 'Requests this access key may make per minute.',
    schema: { type: 'integer' },
  },
  RateLimitRemaining: {
    description: 'Requests left in the current one-minute window.',
    schema: { type: 'integer' },
  },
  RateLimitReset: {
    description: 'Seconds until the window has room again.',
    schema: { type: 'integer' },
  },
  RetryAfter: {
    description: 'Seconds to wait before retrying.',
    schema: { type: 'integer' },
  },
  WwwAuthenticate: {
    description:
      'The challenges: `Basic realm="kassa", charset="UTF-8", Bearer realm="kassa"`; for a bearer token that is not ' +
      'accepted, `Bearer realm="kassa", error="invalid_token", error_description="…"` (RFC 6750 §3).',
    schema: { type: 'string' },
  },
  IdempotentReplayed: {
    description: 'true when this is the stored response of an earlier request with the same Idempotency-Key.',
    schema: { type: 'string', enum: ['true'] },
  },
} as const

const PARAMETERS = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the request safe to retry: a retry with the same key (per organization, method and path, for 24 hours) ' +
      'replays the first response instead of acting again. The same key with a different request is a 422; ' +
      'while the first request still runs, a 425 with Retry-After.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]{1,255}$' },
  },
} as const

const headerRef = (name: keyof typeof HEADERS) => ({ $ref: `#/components/headers/${name}` })

interface Operation {
  [key: string]: unknown
  description?: string
  requestBody?: { required?: boolean }
  security?: unknown[]
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>
}
interface Document {
  paths?: Record<string, Record<string, Operation>>
  components?: Record<string, unknown>
}

const DEFAULT_DESCRIPTIONS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', default: 'Response' }

/** What every list operation shares (spec: Pagination rules 2–5), said once and added to each one's description. */
const PAGING =
  'Pages: `limit` items at most (1 to 500, default 100); send the response\'s `nextToken` as `token` for the next ' +
  'page, with the same filters (changing a filter means starting again without a token). A page may hold fewer ' +
  'items than `limit` while more exist: only an empty `nextToken` means the end.'

function isList(operation: Operation): boolean {
  return (operation.parameters ?? []).some((parameter) => parameter.in === 'query' && parameter.name === 'token')
}

/**
 * Gives every documented route its operationId (see operation-ids.ts) as it is registered, so a duplicate or
 * an underivable id stops the app from starting, as a route without a permission does.
 * @throws Error naming both routes when two operations would share an id.
 */
function registerOperationIds(app: FastifyInstance): void {
  const routes = new Map<string, string>()
  app.addHook('onRoute', (route) => {
    // HEAD routes are Fastify's twins of GET routes, and hidden routes are not documented.
    if (route.method === 'HEAD' || route.schema?.hide === true) return
    const path = openApiPath(route.url)
    // The methods of one route would share its schema, hence one operationId.
    if (Array.isArray(route.method)) throw new Error(`${route.method.join(', ')} ${path}: register one route per method`)
    const operationId = operationIdOf(route.method, path)
    if (!OPERATION_ID_PATTERN.test(operationId)) throw new Error(`operationId ${operationId} of ${route.method} ${path} is not camelCase`)
    const taken = routes.get(operationId)
    if (taken !== undefined) throw new Error(`operationId ${operationId} of ${route.method} ${path} is already that of ${taken}`)
    routes.set(operationId, `${route.method} ${path}`)
    route.schema = { ...route.schema, operationId }
  })
}

/**
 * Routes outside the API scope (health probes) declare no permission and need no credentials;
 * JSON Patch bodies are documented under both content types they are accepted as; optional bodies are noted.
 */
const transformRoute: SwaggerTransform = ({ schema, url, route }) => {
  const result: FastifySchema = noteOptionalBody({ ...(schema ?? {}) })
  if (route.config?.permission === undefined) result.security = []
  const patch = (result.body as { items?: unknown } | undefined)?.items === JsonPatchOperation
  if (patch && !('consumes' in result)) {
    result.consumes = ['application/json-patch+json', 'application/json']
  }
  return { schema: result, url }
}

/**
 * Adds the shared headers to every response, Idempotency-Key to every API POST and PATCH, the paging rules
 * to every list's description, and `required: false` to the bodies a route may go without.
 */
const addConventions: SwaggerTransformObject = (documentObject) => {
  const document = ('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as Document
  document.components = { ...document.components, headers: HEADERS, parameters: PARAMETERS }
  for (const operations of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const api = !(Array.isArray(operation.security) && operation.security.length === 0)
      const command = api && (method === 'post' || method === 'patch')
      markOptionalBody(operation)
      if (isList(operation)) operation.description = [operation.description, PAGING].filter(Boolean).join('\n\n')
      if (command && !(operation.parameters ?? []).some((p) => p.name?.toLowerCase() === 'idempotency-key')) {
        operation.parameters = [...(operation.parameters ?? []), { $ref: '#/components/parameters/IdempotencyKey' }]
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const headers: Record<string, unknown> = { 'request-id': headerRef('RequestId') }
        if (api && status !== '401' && status !== '503') {
          headers['RateLimit-Limit'] = headerRef('RateLimitLimit')
          headers['RateLimit-Remaining'] = headerRef('RateLimitRemaining')
          headers['RateLimit-Reset'] = headerRef('RateLimitReset')
        }
        if (status === '425' || status === '429' || status === '503') headers['Retry-After'] = headerRef('RetryAfter')
        if (status === '401' && api) headers['WWW-Authenticate'] = headerRef('WwwAuthenticate')
        if (command && (status.startsWith('2') || status === 'default')) {
          headers['Idempotent-Replayed'] = headerRef('IdempotentReplayed')
        }
        if (response.description === 'Default Response') response.description = DEFAULT_DESCRIPTIONS[status] ?? 'Response'
        response.headers = { ...headers, ...response.headers }
      }
    }
  }
  return document as ReturnType<SwaggerTransformObject>
}

/** The OpenAPI 3.1 document is generated from the same TypeBox schemas that validate requests. */
export async function registerOpenApi(app: FastifyInstance, version: string): Promise<void> {
  app.addSchema(ErrorEnvelope)
  registerOperationIds(app)
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kassa API',
        version,
        description:
          'Self-hosted financial data and payments API. Every API request authenticates with HTTP Basic ' +
          '(ACCESS_KEY:SECRET) or with a bearer token issued for the access key by POST /iam/v2beta/oauth2/token (OAuth2 ' +
          'client credentials), every response carries a request-id header, and every error has the ErrorEnvelope shape.',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      servers: [
        {
          url: 'http://127.0.0.1:8080',
          description: 'A Kassa server started on this machine with `npm start` (HOST and PORT default to 127.0.0.1 and 8080)',
        },
      ],
      tags: [...TAGS],
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: 'An access key and its secret: ACCESS_KEY:SECRET' },
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'A token issued for an access key by POST /iam/v2beta/oauth2/token (OAuth2 client credentials); it acts as the key',
          },
        },
      },
      // Either scheme (OpenAPI: the requirements of the list are alternatives).
      security: [{ basicAuth: [] }, { bearerAuth: [] }],
    },
    transform: transformRoute,
    transformObject: addConventions,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
  })
}
