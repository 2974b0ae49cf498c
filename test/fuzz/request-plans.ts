import fc from 'fast-check'
import { nearValid } from './body-mutations.js'
import type { Repeated } from './json-text.js'
import type { Operation } from './openapi-operations.js'
import { patchDocument } from './patch-documents.js'
import {
  authChoice,
  idChoice,
  idempotencyKey,
  ifMatchChoice,
  malformedJson,
  queryParts,
  strayHeaders,
  type AuthChoice,
  type Body,
  type IdChoice,
  type IfMatchChoice,
  type QueryPart,
} from './request-parts.js'
import { validBody, type Vocabulary } from './schema-values.js'
import { statementBody, statementContentType, type StatementAccounts } from './xml-bodies.js'

/**
 * One generated request for one operation of docs/openapi.json, as a plan: what to send, with the
 * parts that depend on the server's state (known ids, the current etag, credentials) still symbolic.
 * The plan is what fast-check prints as a counterexample, so it stays short.
 */
export interface RequestPlan {
  /** `PATCH /payments/v2/counterparties/{id}`: the operation the request was made for. */
  operation: string
  /** Usually the operation's method; now and then another one (405 with Allow). */
  method: string
  ids: IdChoice[]
  /** Appended to the path: usually nothing, now and then a slash, a dot segment, an encoded NUL. */
  suffix: string
  query: QueryPart[]
  auth: AuthChoice
  ifMatch: IfMatchChoice
  idempotencyKey?: string | Repeated
  contentType?: string
  headers: Record<string, string>
  body?: Body
}

export interface PlanContext {
  vocabulary: Vocabulary
  statements: StatementAccounts
}

export function operationLabel(operation: Operation): string {
  return `${operation.method} ${operation.path}`
}

const JSON_TYPE_VARIANTS = [
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/vnd.api+json',
  'application/jsonx',
  'application/json;;;',
  'application/json; charset="utf-8"',
  'application/json, text/plain',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '*/*',
  '',
]

function contentTypes(declared: string[]): fc.Arbitrary<string | undefined> {
  return fc.oneof({ arbitrary: fc.constantFrom(...declared), weight: 10 }, { arbitrary: fc.constantFrom(...JSON_TYPE_VARIANTS), weight: 2 }, fc.constant(undefined))
}

type Payload = { contentType: string | undefined; body: Body | undefined }

function payload(operation: Operation, context: PlanContext): fc.Arbitrary<Payload> {
  const json = (value: unknown): Body => ({ kind: 'json', value })
  const randomJson = fc.jsonValue({ maxDepth: 3 }).map(json)
  const spec = operation.body
  if (spec?.contentTypes.some((type) => type.includes('xml'))) {
    return fc.record({ contentType: statementContentType, body: statementBody(context.statements).map((text): Body => ({ kind: 'text', text })) })
  }
  if (!spec) {
    const body = fc.oneof({ arbitrary: fc.constant(undefined), weight: 8 }, randomJson, malformedJson)
    return fc.record({ contentType: contentTypes(['application/json']), body })
  }
  const nearly = nearValid(spec.schema, context.vocabulary, spec.example).map(json)
  const body =
    operation.method === 'PATCH' && operation.resource
      ? fc.oneof(
          { arbitrary: patchDocument(operation.resource, context.vocabulary).map(json), weight: 8 },
          validBody(spec.schema, context.vocabulary, spec.example).map(json),
          nearly,
          malformedJson,
        )
      : fc.oneof(
          { arbitrary: validBody(spec.schema, context.vocabulary, spec.example).map(json), weight: 3 },
          { arbitrary: nearly, weight: 6 },
          randomJson,
          malformedJson,
          fc.constant(undefined),
        )
  return fc.record({ contentType: contentTypes(spec.contentTypes), body })
}

const OTHER_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']

export function requestPlan(operation: Operation, context: PlanContext): fc.Arbitrary<RequestPlan> {
  const declaresIfMatch = operation.headers.some((header) => header.name.toLowerCase() === 'if-match')
  return fc
    .record({
      method: fc.oneof({ arbitrary: fc.constant(operation.method), weight: 19 }, fc.constantFrom(...OTHER_METHODS)),
      ids: fc.tuple(...operation.pathParams.map(() => idChoice)),
      suffix: fc.oneof({ arbitrary: fc.constant(''), weight: 24 }, fc.constantFrom('/', '//', '/..', '/%2e%2e', '.json', '%00', '/x', ';x', '%2F')),
      query: queryParts(operation.query, context.vocabulary),
      auth: authChoice,
      ifMatch: ifMatchChoice(declaresIfMatch),
      idempotencyKey,
      payload: payload(operation, context),
      headers: strayHeaders,
    })
    .map(({ payload: { contentType, body }, idempotencyKey: key, ...plan }) => ({
      operation: operationLabel(operation),
      ...plan,
      ...(key === undefined ? {} : { idempotencyKey: key }),
      ...(contentType === undefined ? {} : { contentType }),
      ...(body === undefined ? {} : { body }),
    }))
}
