import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Connection } from '../../src/connectivity/connections/index.js'
import type { Credentials } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'

/** Shared steps of the bank connection tests. */

export const CONNECTIONS = '/connectivity/v2/connections'

/** A FILES connection with what a bank needs and nothing optional. */
export function connectionBody(overrides: Record<string, unknown> = {}) {
  return {
    type: 'FILES',
    name: 'Deutsche Kreditbank, EBICS',
    bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
    initiatingParty: { name: 'Acme GmbH' },
    ...overrides,
  }
}

export async function createConnection(t: TestApp, overrides: Record<string, unknown> = {}, as?: Credentials): Promise<Connection> {
  const response = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody(overrides), as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Connection>()
}

export function patchConnection(t: TestApp, ref: string, etag: string | undefined, operations: unknown, as?: Credentials): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'PATCH',
    url: `${CONNECTIONS}/${ref}`,
    body: JSON.stringify(operations),
    headers: { 'content-type': 'application/json-patch+json', ...(etag === undefined ? {} : { 'if-match': etag }) },
    as,
  })
}
