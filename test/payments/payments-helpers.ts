import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import type { ExternalAccount } from '../../src/payments/external-accounts/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'

/** Shared steps of the counterparty and external-account HTTP tests. */

export const COUNTERPARTIES = '/payments/v2/counterparties'
export const EXTERNAL_ACCOUNTS = '/payments/v2/external-accounts'

interface ListPage<T> {
  items: T[]
  nextToken: string
  token: string
  limit: number
}

/** POSTs `counterpartyBody(overrides)` and insists on 201. */
export async function createCounterparty(
  t: TestApp,
  overrides: Record<string, unknown> = {},
  as?: Credentials,
): Promise<Counterparty> {
  const response = await t.request({ method: 'POST', url: COUNTERPARTIES, body: counterpartyBody(overrides), as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Counterparty>()
}

/** A JSON Patch sent as RFC 6902 says, with the given If-Match. */
export function patch(
  t: TestApp,
  url: string,
  etag: string,
  operations: unknown,
  as?: Credentials,
): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'PATCH',
    url,
    body: JSON.stringify(operations),
    headers: { 'if-match': etag, 'content-type': 'application/json-patch+json' },
    as,
  })
}

/** DELETE with the etag as If-Match, which deleting requires like any update (428 without it). */
export function remove(t: TestApp, url: string, etag: string, as?: Credentials): Promise<LightMyRequestResponse> {
  return t.request({ method: 'DELETE', url, headers: { 'if-match': etag }, as })
}

/** Every item of a list, following nextToken until it is empty. */
export async function listAll<T = Counterparty | ExternalAccount>(
  t: TestApp,
  url: string,
  as?: Credentials,
): Promise<T[]> {
  const items: T[] = []
  let token = ''
  do {
    const separator = url.includes('?') ? '&' : '?'
    const response = await t.request({ method: 'GET', url: `${url}${separator}limit=500&token=${token}`, as })
    expect(response.statusCode, response.body).toBe(200)
    const page = response.json<ListPage<T>>()
    items.push(...page.items)
    token = page.nextToken
  } while (token !== '')
  return items
}

export async function listPage<T>(t: TestApp, url: string, as?: Credentials): Promise<ListPage<T>> {
  const response = await t.request({ method: 'GET', url, as })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<ListPage<T>>()
}

/** The error envelope of a 4xx, checked for its status and machine code. */
export function expectError(response: LightMyRequestResponse, status: number, code: string) {
  expect(response.statusCode, response.body).toBe(status)
  const body = response.json<{ status: number; code: string; message: string; requestId: string; details?: unknown[] }>()
  expect(body).toMatchObject({ status, code })
  expect(body.requestId).toBe(response.headers['request-id'])
  return body
}

/** A 400 whose details name `field`. */
export function expectInvalidField(response: LightMyRequestResponse, field: string, code = 'invalid_request') {
  const body = expectError(response, 400, code)
  expect(body.details, response.body).toContainEqual(expect.objectContaining({ field }))
  return body
}
