import { PassThrough } from 'node:stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PLAN_BYTES, MAX_STATEMENT_ENTRIES, MAX_XML_TOKEN_CHARS, STATEMENT_BODY_LIMIT } from '../../src/financial-data/statements/index.js'
import { expectError } from '../conventions/expectations.js'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { camtFixture, listBalances, postStatement, sandboxAccounts, writtenRows, type SandboxAccount } from './statements-helpers.js'

/**
 * What a statement upload may not do (issue 9): declare a DOCTYPE, pass the size limits, or run beside
 * another import; and what it still does, streamed: import a file of several megabytes, replay an
 * Idempotency-Key. The memory and latency of a large import are measured in test/slow/.
 */

let t: TestApp
let accounts: Record<'operating' | 'payroll' | 'nordic', SandboxAccount>
let nordic: string

beforeAll(async () => {
  t = await startTestApp({ webhooks: { startWorker: false } })
  accounts = await sandboxAccounts(t)
  nordic = camtFixture('camt053-001-08-nordic.xml', { nordic: accounts.nordic.iban })
})
afterAll(() => t.close())

/** Posts a statement and checks that it was refused with `status` and `code` and wrote nothing. */
async function refused(xml: string, status: number, code: string, headers: Record<string, string> = {}) {
  const before = await writtenRows(t)
  const response = await postStatement(t, xml, { headers })
  const body = expectError(response, status, code)
  expect(await writtenRows(t)).toEqual(before)
  return body
}

describe('XML with a DOCTYPE', () => {
  const withDoctype = (declaration: string) => nordic.replace('?>', `?>\n${declaration}`).replace('<Nm>Fjällbacka Konsult AB</Nm>', '<Nm>&payload;</Nm>')

  it('is refused with a 400 naming the DOCTYPE when it declares an external entity', async () => {
    const body = await refused(withDoctype('<!DOCTYPE Document [<!ENTITY payload SYSTEM "file:///etc/passwd">]>'), 400, 'invalid_request')
    expect(body.message).toContain('declares a DOCTYPE (line 2)')
    expect(body.details).toEqual([{ code: 'doctype_not_allowed', field: 'line 2', error: 'a DOCTYPE declaration is not accepted' }])
  })

  it('is refused with a 400 when it declares a parameter entity', async () => {
    const body = await refused(withDoctype('<!DOCTYPE Document [<!ENTITY % remote SYSTEM "http://127.0.0.1:9/evil.dtd"> %remote; <!ENTITY payload "x">]>'), 400, 'invalid_request')
    expect(body.details).toEqual([expect.objectContaining({ code: 'doctype_not_allowed' })])
  })
})

describe('limits', () => {
  it(`refuses a body declared larger than ${STATEMENT_BODY_LIMIT / 1024 / 1024} MiB with a 413, reading none of it`, async () => {
    const body = await refused(nordic, 413, 'payload_too_large', { 'content-length': String(STATEMENT_BODY_LIMIT + 1) })
    expect(body.message).toContain('its Content-Length is 200.0 MiB')
  })

  it(`refuses a file of more than ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries with a 413 that says how to split it`, async () => {
    const entries = '<Ntry/>'.repeat(MAX_STATEMENT_ENTRIES + 1)
    const body = await refused(nordic.replace('<Ntry>', `${entries}<Ntry>`), 413, 'payload_too_large')
    expect(body.message).toContain(`it holds more than ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries (Ntry)`)
    expect(body.message).toContain('split it into several files')
  })

  it(`refuses a small file whose entries would plan to more than ${MAX_PLAN_BYTES / 1024 / 1024} MiB with a 413: one entry split into parts that each repeat its long text`, async () => {
    // Each part becomes a transaction described by the entry's AddtlNtryInf: 130 parts of half a MiB plan to 65 MiB.
    const text = 'x'.repeat(512 * 1024)
    const parts = Array.from({ length: 130 }, (_, n) => `<TxDtls><Refs><EndToEndId>PART-${n}</EndToEndId></Refs><Amt Ccy="SEK">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls>`)
    const entry = `<Ntry><Amt Ccy="SEK">130.00</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt><NtryDtls>${parts.join('')}</NtryDtls><AddtlNtryInf>${text}</AddtlNtryInf></Ntry>`
    const file = nordic.replace('<Ntry>', `${entry}<Ntry>`)
    expect(file.length).toBeLessThan(MAX_PLAN_BYTES / 100)
    const body = await refused(file, 413, 'payload_too_large')
    expect(body.message).toContain(`its entries would take more than ${(MAX_PLAN_BYTES / 1024 / 1024).toFixed(1)} MiB of memory to plan`)
  })

  it('refuses one text longer than the parser takes at once with a 413', async () => {
    const body = await refused(nordic.replace('<AddtlNtryInf>', `<AddtlNtryInf>${'x'.repeat(MAX_XML_TOKEN_CHARS + 1)}`), 413, 'payload_too_large')
    expect(body.message).toContain('a single text, tag or comment runs past 1 MiB')
  })

  it('answers a request without a body with a 400', async () => {
    const response = await t.request({ method: 'POST', url: '/financial-data/v2/statements' })
    expect(expectError(response, 400, 'invalid_request').message).toContain('Send the statement file as the body')
  })
})

describe('a generated statement of 6,000 entries (3 MiB)', () => {
  it('is streamed, checked and booked whole: every entry, the batches split, the balances adding up', async () => {
    const organization = await t.newOrganization('Several megabytes')
    const { operating } = await sandboxAccounts(t, organization)
    const xml = generateCamt053({ iban: operating.iban, entries: 6_000, referencePrefix: 'MB', opening: 20_000_000 })
    expect(Buffer.byteLength(xml)).toBeGreaterThan(3 * 1024 * 1024)
    const response = await postStatement(t, xml, { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    // Every 50th of them is a batch of three payments with their own amounts: 120 entries become 360 transactions.
    expect(response.json()).toMatchObject({ statementsFound: 1, transactionsBooked: 6_240, statements: [{ entriesFound: 6_000, entriesNotBooked: 0 }] })
    const total = await t.db.database.db
      .selectFrom('transactions')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount').as('sum')])
      .where('account_id', '=', operating.id)
      .where('entry_reference', 'like', 'MB%')
      .executeTakeFirstOrThrow()
    const balances = await listBalances(t, operating.id, organization)
    const open = balances.find((balance) => balance.reportedType === 'OPEN')!.amount.value
    const close = balances.find((balance) => balance.reportedType === 'CLOSE')!.amount.value
    expect(Number(total.count)).toBe(6_240)
    expect(open + Number(total.sum)).toBe(close)
  })
})

describe('Idempotency-Key on an upload', () => {
  it('replays the first answer to the same file and refuses another file with a 422', async () => {
    const organization = await t.newOrganization('Idempotent uploads')
    const { nordic: account } = await sandboxAccounts(t, organization)
    const file = camtFixture('camt053-001-08-nordic.xml', { nordic: account.iban })
    const headers = { 'idempotency-key': 'statement-2026-03-02' }
    const first = await postStatement(t, file, { as: organization, headers })
    expect(first.statusCode, first.body).toBe(201)
    const before = await writtenRows(t)
    const retry = await postStatement(t, file, { as: organization, headers })
    expect(retry.statusCode).toBe(201)
    expect(retry.headers['idempotent-replayed']).toBe('true')
    expect(retry.json()).toEqual(first.json())
    const other = await postStatement(t, file.replace('SE-20260302-000061', 'SE-20260302-000062'), { as: organization, headers })
    expectError(other, 422, 'idempotency_key_reused')
    expect(await writtenRows(t)).toEqual(before)
  })
})

describe('one import at a time', () => {
  it('answers another upload 503 with Retry-After while one is read, 425 to the same Idempotency-Key, and takes the next once it is done', async () => {
    const organization = await t.newOrganization('One at a time')
    const { nordic: account } = await sandboxAccounts(t, organization)
    const file = camtFixture('camt053-001-08-nordic.xml', { nordic: account.iban })
    const headers = { authorization: basicAuth(organization), 'content-type': 'application/xml', 'idempotency-key': 'slow-upload' }
    const payload = new PassThrough()
    const slow = t.app.inject({ method: 'POST', url: '/financial-data/v2/statements', headers, payload })
    const half = file.length / 2
    payload.write(file.slice(0, half))
    // Read by the import once the server has taken it in.
    for (let waited = 0; payload.readableLength > 0 && waited < 5_000; waited += 10) await new Promise((resolve) => setTimeout(resolve, 10))
    expect(payload.readableLength).toBe(0)

    const busy = await postStatement(t, nordic)
    expect(expectError(busy, 503, 'unavailable').message).toContain('Another statement or bank file is being imported')
    expect(busy.headers['retry-after']).toBe('5')
    const sameKey = await postStatement(t, file, { as: organization, headers: { 'idempotency-key': 'slow-upload' } })
    expectError(sameKey, 425, 'idempotency_key_in_use')

    payload.end(file.slice(half))
    const done = await slow
    expect(done.statusCode, done.body).toBe(201)
    expect(done.json()).toMatchObject({ transactionsBooked: 6 })
    const next = await postStatement(t, file, { as: organization })
    expect(next.statusCode, next.body).toBe(201)
    expect(next.json()).toMatchObject({ transactionsBooked: 0, transactionsAlreadyPresent: 6 })
  })

  it('is free again after a refused upload', async () => {
    await refused('<?xml version="1.0"?><Document>', 400, 'invalid_request')
    const response = await postStatement(t, nordic)
    expect(response.statusCode, response.body).toBe(201)
  })
})
