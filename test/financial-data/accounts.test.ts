import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { IBANS } from '../support/fixtures.js'

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

const ownAccount = (overrides: Record<string, unknown> = {}) => ({
  name: 'Geschäftskonto',
  market: 'NL',
  currency: 'EUR',
  bank: { name: 'ABN AMRO', bic: 'ABNANL2A' },
  identifiers: [{ market: 'NL', type: 'IBAN', number: 'nl91 abna 0417 1643 00' }],
  ...overrides,
})

describe('accounts', () => {
  it('lists the sandbox accounts, filtered by currency and by IBAN', async () => {
    const all = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts' })).json()
    expect(all.items.map((a: { currency: string }) => a.currency)).toEqual(['EUR', 'EUR', 'SEK'])
    expect(all.items.every((a: { fictive: boolean }) => a.fictive)).toBe(true)
    const iban = all.items[1].identifiers[0].number as string
    const spaced = iban.replace(/(.{4})/g, '$1 ').toLowerCase()
    const byIban = (await t.request({ method: 'GET', url: `/financial-data/v2/accounts?identifier=${encodeURIComponent(spaced)}` })).json()
    expect(byIban.items.map((a: { id: string }) => a.id)).toEqual([all.items[1].id])
    const fragment = (await t.request({ method: 'GET', url: `/financial-data/v2/accounts?identifier=${iban.slice(0, 10)}` })).json()
    expect(fragment.items).toEqual([])
  })

  it('registers an own account held at a real bank, once per IBAN', async () => {
    const created = await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: ownAccount({ externalId: 'abn-main' }) })
    expect(created.statusCode).toBe(201)
    expect(created.json()).toMatchObject({ fictive: false, bank: { name: 'ABN AMRO', bic: 'ABNANL2A' }, identifiers: [{ type: 'IBAN', number: IBANS.nl }], version: 1 })
    expect((await t.request({ method: 'GET', url: '/financial-data/v2/accounts/external:abn-main' })).json().id).toBe(created.json().id)
    const again = await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: ownAccount() })
    expect(again.statusCode).toBe(409)
    const badIban = await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: ownAccount({ identifiers: [{ market: 'NL', type: 'IBAN', number: 'NL91ABNA0417164301' }] }) })
    expect(badIban.statusCode).toBe(400)
    expect(badIban.json().details[0].field).toBe('identifiers.0.number')
    const badCurrency = await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: ownAccount({ currency: 'EUX' }) })
    expect(badCurrency.statusCode).toBe(400)
    const readOnly = await t.newKey('read-only')
    expect((await t.request({ method: 'POST', url: '/financial-data/v2/accounts', body: ownAccount(), as: readOnly })).statusCode).toBe(403)
  })

  it('patches alias and metadata only, with If-Match', async () => {
    const account = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?limit=1' })).json().items[0]
    const patched = await t.request({
      method: 'PATCH',
      url: `/financial-data/v2/accounts/${account.id}`,
      headers: { 'if-match': account.etag, 'content-type': 'application/json-patch+json' },
      body: JSON.stringify([{ op: 'add', path: '/alias', value: 'Main' }, { op: 'add', path: '/metadata/costCenter', value: 'CC-100' }]),
    })
    expect(patched.statusCode).toBe(200)
    expect(patched.json()).toMatchObject({ alias: 'Main', metadata: { costCenter: 'CC-100' }, version: account.version + 1 })
    const refused = await t.request({ method: 'PATCH', url: `/financial-data/v2/accounts/${account.id}`, headers: { 'if-match': patched.json().etag }, body: [{ op: 'replace', path: '/currency', value: 'USD' }] })
    expect(refused.statusCode).toBe(400)
    const stale = await t.request({ method: 'PATCH', url: `/financial-data/v2/accounts/${account.id}`, headers: { 'if-match': account.etag }, body: [{ op: 'remove', path: '/alias' }] })
    expect(stale.statusCode).toBe(412)
    expect((await t.request({ method: 'PATCH', url: `/financial-data/v2/accounts/${account.id}`, body: [{ op: 'remove', path: '/alias' }] })).statusCode).toBe(428)
  })

  it('answers 404 for another organization’s account', async () => {
    const other = await t.newOrganization()
    const theirs = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?limit=1', as: other })).json().items[0]
    expect((await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${theirs.id}` })).statusCode).toBe(404)
  })
})
