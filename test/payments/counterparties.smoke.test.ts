import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { counterpartyBody, IBANS } from '../support/fixtures.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

describe('counterparties: first step of the payment flow', () => {
  it('creates a counterparty whose external account gets an id, and reads it back', async () => {
    const created = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })
    expect(created.statusCode).toBe(201)
    const counterparty = created.json()
    expect(counterparty.accounts[0].id).toMatch(/^[0-9a-f-]{36}$/)
    expect(counterparty.accounts[0].identifiers[0].number).toBe(IBANS.de)
    expect(counterparty.etag).toBe('version:1')
    const read = await t.request({ method: 'GET', url: `/payments/v2/counterparties/${counterparty.id}` })
    expect(read.statusCode).toBe(200)
    expect(read.json()).toEqual(counterparty)
  })
})
