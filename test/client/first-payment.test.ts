import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { firstPayment } from '../../packages/client/examples/first-payment.js'
import { startClientTestServer, type ClientTestServer } from './client-test-server.js'

/** The README's first payment written with the SDK (packages/client/examples/first-payment.ts), run as it ships. */
let server: ClientTestServer
beforeAll(async () => {
  server = await startClientTestServer()
})
afterAll(() => server?.close())

describe('the SDK walkthrough', () => {
  it('takes a credit transfer from a new counterparty to RECONCILED, every webhook verified', async () => {
    const lines: string[] = []
    const result = await firstPayment({ baseUrl: server.baseUrl, ...server.t.owner, log: (line) => lines.push(line) })

    expect(result.status).toBe('RECONCILED')
    expect(result.events).toEqual(['CREATED', 'FULLY_APPROVED', 'PENDING_SUBMISSION', 'SENT_TO_BANK', 'ACCEPTED_BY_BANK', 'EXECUTED', 'RECONCILED'])
    expect(result.webhooks.map((webhook) => webhook.event)).toEqual(result.events)
    expect(result.webhooks.every((webhook) => webhook.verified)).toBe(true)

    expect(lines).toContain('2. retried: same id true, replayed true')
    expect(lines).toContain('3. accounts: Operating account (EUR), Payroll account (EUR), Nordic account (SEK)')
    expect(lines).toContain('5. alias acme-payables, version 2')
    expect(lines.find((line) => line.startsWith('   stale etag:'))).toMatch(/^ {3}stale etag: 412 precondition_failed \(request [0-9a-f-]{36}\)$/)
    expect(lines).toContain('9. 400 invalid_request: accounts.0.identifiers.0.number IBAN fails the mod-97 checksum')

    // What the server holds: one counterparty (the retry created nothing), patched, and the transfer.
    const counterparties = await server.t.request({ method: 'GET', url: '/payments/v2/counterparties' })
    expect(counterparties.json().items.map((item: { id: string; alias: string }) => [item.id, item.alias])).toEqual([[result.counterpartyId, 'acme-payables']])
    const transfer = await server.t.request({ method: 'GET', url: `/payments/v2/credit-transfers/${result.transferId}` })
    expect(transfer.json()).toMatchObject({ status: 'RECONCILED', amount: { currency: 'EUR', value: 12500 }, reference: 'Invoice 2026-117' })
  })
})
