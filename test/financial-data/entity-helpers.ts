import { expect } from 'vitest'
import type { Entity } from '../../src/financial-data/entities/index.js'
import type { Credentials } from '../../src/iam/index.js'
import { listAll } from '../payments/payments-helpers.js'
import type { TestApp } from '../support/test-app.js'

/** Shared steps of the entity tests. */

export const ENTITIES = '/financial-data/v2/entities'
export const ACCOUNTS = '/financial-data/v2/accounts'

export async function createEntity(t: TestApp, body: Record<string, unknown> = {}, as?: Credentials): Promise<Entity> {
  const response = await t.request({ method: 'POST', url: ENTITIES, body: { legalName: 'Acme Nordics AB', ...body }, as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json<Entity>()
}

/** The organization's live entities, oldest first; the first is the one it started with. */
export function entitiesOf(t: TestApp, as?: Credentials): Promise<Entity[]> {
  return listAll<Entity>(t, ENTITIES, as)
}

/** An own account at a real bank, registered without a connection, as its statements' importer would. */
export function ownAccountBody(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Business account',
    market: 'DE',
    currency: 'EUR',
    bank: { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' },
    identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE02120300000000202051' }],
    ...overrides,
  }
}
