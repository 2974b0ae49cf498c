import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import type { FastifyInstance, FastifySchema } from 'fastify'
import { ErrorEnvelope } from './errors.js'
import { JsonPatchBody } from './json-patch.js'

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
    description: 'The HTTP Basic challenge.',
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
  security?: unknown[]
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>
  responses?: Record<string, { description?: string; headers?: Record<string, unknown> }>
}
interface Document {
  paths?: Record<string, Record<string, Operation>>
  components?: Record<string, unknown>
}

const DEFAULT_DESCRIPTIONS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', default: 'Response' }

/**
 * Routes outside the API scope (health probes) declare no permission and need no credentials;
 * JSON Patch bodies are documented under both content types they are accepted as.
 */
const transformRoute: SwaggerTransform = ({ schema, url, route }) => {
  const result: FastifySchema = { ...(schema ?? {}) }
  if (route.config?.permission === undefined) result.security = []
  if (result.body === JsonPatchBody && !('consumes' in result)) {
    result.consumes = ['application/json-patch+json', 'application/json']
  }
  return { schema: result, url }
}

/** Adds the shared headers to every response and Idempotency-Key to every API POST and PATCH. */
const addConventions: SwaggerTransformObject = (documentObject) => {
  const document = ('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as Document
  document.components = { ...document.components, headers: HEADERS, parameters: PARAMETERS }
  for (const operations of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const api = !(Array.isArray(operation.security) && operation.security.length === 0)
      const command = api && (method === 'post' || method === 'patch')
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
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Kassa API',
        version,
        description:
          'Self-hosted financial data and payments API. Every API request authenticates with HTTP Basic ' +
          '(ACCESS_KEY:SECRET), every response carries a request-id header, and every error has the ErrorEnvelope shape.',
      },
      components: { securitySchemes: { basicAuth: { type: 'http', scheme: 'basic' } } },
      security: [{ basicAuth: [] }],
    },
    transform: transformRoute,
    transformObject: addConventions,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, index) => String(json.$id ?? `def-${index}`),
    },
  })
}
