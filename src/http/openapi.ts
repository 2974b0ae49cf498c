import swagger, { type SwaggerTransform, type SwaggerTransformObject } from '@fastify/swagger'
import type { FastifyInstance, FastifySchema } from 'fastify'
import { ErrorEnvelope } from './errors.js'
import { JsonPatchOperation } from './json-patch.js'
import { OPERATION_ID_PATTERN, openApiPath, operationIdOf } from './operation-ids.js'

/**
 * The tags operations are grouped by, in the order a reader meets them (spec: What the service does):
 * own accounts and their data, then payments, then settings. Every tag a route uses must be here.
 */
export const TAGS = [
  {
    name: 'Entities',
    description:
      "The organization's legal entities, possibly a group of them under parents: every own account belongs to one, " +
      'and counterparties may be scoped to some. An organization starts with one, named as the organization.',
  },
  {
    name: 'Accounts',
    description:
      "The organization's own bank accounts: those of the sandbox bank, which a sandbox organization starts with, and " +
      'accounts at real banks registered here, whose transactions and balances come from imported statements.',
  },
  {
    name: 'Transactions',
    description:
      'Entries booked on own accounts, as their bank reported them. Read-only but for metadata; payments are ' +
      'reconciled to the transactions that settle them.',
  },
  {
    name: 'Pending transactions',
    description:
      'Entries a bank shows on own accounts before booking them — a credit transfer the sandbox bank holds, a PDNG ' +
      'entry of an imported report — until the booked transaction with the same entry reference ends them (BOOKED), ' +
      'or the bank drops them (WITHDRAWN). Read-only; their date is provisional.',
  },
  {
    name: 'Balances',
    description: 'The balances of own accounts as their bank reported them, per day: BOOKED or AVAILABLE; OPEN, CLOSE or INTERIM.',
  },
  {
    name: 'Statements',
    description: 'Import of ISO 20022 bank statements (camt.053, camt.052, camt.054) for accounts held at real banks.',
  },
  {
    name: 'Sandbox',
    description:
      "The controls of a sandbox organization's simulated bank: its clock (the business date it books and executes on) " +
      'and transactions injected as if the bank had booked them.',
  },
  {
    name: 'Connections',
    description:
      "How the organization reaches its banks: FILES connections exchange ISO 20022 files (pain.001 and pain.008 out, " +
      'status reports and statements in), optionally through directories on the server that a separate tool syncs ' +
      "with the bank's channel; SANDBOX connections reach the simulated bank.",
  },
  {
    name: 'Counterparties',
    description:
      'The people and companies payments go to or come from, each holding external accounts. A counterparty exists ' +
      'before any payment to or from it (spec: Approval rules).',
  },
  {
    name: 'External accounts',
    description:
      "Counterparties' bank accounts, created with their counterparty: the destination of credit transfers and the " +
      'source of direct debits.',
  },
  {
    name: 'Credit transfers',
    description:
      'Payments from an own account to an external account (or another own account). Each is approved — by the steps ' +
      'of the approval chains it matches, else by the Owner — then sent to the bank; follow it by its status, its ' +
      'events, or webhooks.',
  },
  {
    name: 'Mandates',
    description: "SEPA direct debit mandates (SDD_CORE, SDD_B2B): a debtor's authorization to collect from their external account.",
  },
  {
    name: 'Direct debits',
    description:
      "Collections from a counterparty's external account into an own account under a mandate; approved and processed " +
      'as credit transfers are.',
  },
  {
    name: 'Approval chains',
    description:
      'Who approves which payments: a chain has a trigger (payment types, accounts, creator roles, amounts) and steps, ' +
      'each approved by a user of the roles or names it lists. A payment gets the steps of every chain it matches; ' +
      'when none matches, the Owner approves it.',
  },
  {
    name: 'Roles',
    description:
      'Named sets of permissions (resource:action). Every organization has the built-in owner, admin and read-only ' +
      'roles; custom roles can be added.',
  },
  {
    name: 'Users',
    description:
      'The people (HUMAN) and integrations (PROGRAMMATIC) of the organization, each holding one role, and their access ' +
      'keys: the credentials every API request authenticates with, by HTTP Basic or by the bearer tokens the OAuth2 ' +
      'token endpoint issues for them.',
  },
  {
    name: 'Webhooks',
    description:
      'Subscriptions to the events of resources, delivered as HTTP POSTs signed with HMAC-SHA256 (Webhook-Signature) ' +
      'and retried with backoff until acknowledged by a 2xx; their signing keys and delivery logs.',
  },
  {
    name: 'Idempotency test',
    description: "An endpoint for exercising a client's Idempotency-Key and retry handling (spec: Idempotency rules).",
  },
  {
    name: 'Health',
    description: 'Unauthenticated probes for load balancers and orchestrators.',
  },
] as const satisfies ReadonlyArray<{ name: string; description: string }>

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
  description?: string
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
 * JSON Patch bodies are documented under both content types they are accepted as.
 */
const transformRoute: SwaggerTransform = ({ schema, url, route }) => {
  const result: FastifySchema = { ...(schema ?? {}) }
  if (route.config?.permission === undefined) result.security = []
  const patch = (result.body as { items?: unknown } | undefined)?.items === JsonPatchOperation
  if (patch && !('consumes' in result)) {
    result.consumes = ['application/json-patch+json', 'application/json']
  }
  return { schema: result, url }
}

/**
 * Adds the shared headers to every response, Idempotency-Key to every API POST and PATCH, and the paging rules
 * to every list's description.
 */
const addConventions: SwaggerTransformObject = (documentObject) => {
  const document = ('openapiObject' in documentObject ? documentObject.openapiObject : documentObject.swaggerObject) as Document
  document.components = { ...document.components, headers: HEADERS, parameters: PARAMETERS }
  for (const operations of Object.values(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      const api = !(Array.isArray(operation.security) && operation.security.length === 0)
      const command = api && (method === 'post' || method === 'patch')
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
