import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { IBANS } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import {
  addDays,
  bankToday,
  bookingsOf,
  CREDIT_TRANSFERS,
  DIRECT_DEBITS,
  directDebitBody,
  externalAccount,
  MANDATES,
  settled,
  transferBody,
} from '../payments/lifecycle-helpers.js'
import { startReceiver, type Receiver } from '../webhooks/receiver.js'
import { ALL_RESOURCES, startWebhookTestApp, WEBHOOKS } from '../webhooks/webhook-helpers.js'
import { Conformance, patchRequest } from './conformance.js'
import type { ReferenceSchemaName } from './reference-schemas.js'

/**
 * Issue 13, "Required fields": every operation Kassa shares with the reference API, called as the reference's
 * clients call it, on data made through the API; every 2xx body — single resources, list pages and their items,
 * webhook deliveries — checked against the reference's response schemas (reference-schemas.ts). A test fails
 * listing each violation as `operationId /path: what`.
 *
 * Not called: the OAuth2 token endpoint, whose answer is RFC 6749's rather than a resource.
 */

const ENTITIES = '/financial-data/v2/entities'
const ACCOUNTS = '/financial-data/v2/accounts'
const TRANSACTIONS = '/financial-data/v2/transactions'
const PENDING_TRANSACTIONS = '/financial-data/v2/pending-transactions'
const COUNTERPARTIES = '/payments/v2/counterparties'
const EXTERNAL_ACCOUNTS = '/payments/v2/external-accounts'
const APPROVAL_CHAINS = '/iam/v2/approval-chains'
const BATCHES = '/payments/v2beta/credit-transfer-batches'

/** The reference schema of a delivered entity, by webhook resource name (reference §5.2). */
const ENTITY_SCHEMA: Record<string, ReferenceSchemaName> = {
  entities: 'Entity',
  counterparties: 'Counterparty',
  external_accounts: 'ExternalAccount',
  transactions: 'Transaction',
  credit_transfers: 'CreditTransfer',
  direct_debits: 'DirectDebit',
  mandates: 'Mandate',
  pending_transactions: 'PendingTransaction',
}

let t: TestApp
let receiver: Receiver
/** POST /v1/webhooks, made first so every later event is delivered; checked with the other webhook operations. */
let subscribing: Conformance
let webhook: { id: string }
let eurAccountIds: string[]
let supplierAccountId: string
/** A credit transfer the sandbox bank has booked and reconciled: its transaction has an attached transactable. */
let reconciled: { id: string; accountId: string }

beforeAll(async () => {
  t = await startWebhookTestApp()
  receiver = await startReceiver()
  subscribing = new Conformance(t)
  webhook = await subscribing.call('createWebhook', { method: 'POST', url: WEBHOOKS, body: { name: 'Parity', url: receiver.url, filter: ALL_RESOURCES } }, 201, { one: 'CreatedWebhook' })
  const accounts = await t.request({ method: 'GET', url: `${ACCOUNTS}?currency=EUR` })
  eurAccountIds = accounts.json<{ items: Array<{ id: string }> }>().items.map((account) => account.id)
  supplierAccountId = await externalAccount(t, t.owner, 'Nordlicht Consulting GmbH', IBANS.de)
})
afterAll(async () => {
  await t?.close()
  await receiver?.close()
})

describe('reference parity: every shared operation answers what reference clients validate', () => {
  it('accounts: listAccounts, getAccount, updateAccount', async () => {
    const c = new Conformance(t)
    const list = await c.call('listAccounts', { method: 'GET', url: ACCOUNTS }, 200, { list: 'Account' })
    const account = await c.call('getAccount', { method: 'GET', url: `${ACCOUNTS}/${list.items[0].id}` }, 200, { one: 'Account' })
    const operations = [
      { op: 'replace', path: '/alias', value: 'Parity' },
      { op: 'replace', path: '/metadata/costCenter', value: '4711' },
    ]
    await c.call('updateAccount', patchRequest(`${ACCOUNTS}/${account.id}`, account.etag, operations), 200, { one: 'Account' })
    c.expectConformant()
  })

  it('entities: create, list, get, update, delete', async () => {
    const c = new Conformance(t)
    const body = { legalName: 'Parity Nordics AB', nationalIdentifier: { type: 'COMPANY', market: 'SE', number: '5561234567' } }
    const entity = await c.call('createEntity', { method: 'POST', url: ENTITIES, body }, 201, { one: 'Entity' })
    await c.call('listEntities', { method: 'GET', url: ENTITIES }, 200, { list: 'Entity' })
    await c.call('getEntity', { method: 'GET', url: `${ENTITIES}/${entity.id}` }, 200, { one: 'Entity' })
    const address = [{ op: 'replace', path: '/address', value: { country: 'SE', city: 'Stockholm' } }]
    const updated = await c.call('updateEntity', patchRequest(`${ENTITIES}/${entity.id}`, entity.etag, address), 200, { one: 'Entity' })
    await c.call('deleteEntity', { method: 'DELETE', url: `${ENTITIES}/${entity.id}`, headers: { 'if-match': updated.etag } }, 204, 'empty')
    c.expectConformant()
  })

  it('balances: listAccountBalances of one account and of every account (-)', async () => {
    const c = new Conformance(t)
    const one = await c.call('listAccountBalances', { method: 'GET', url: `${ACCOUNTS}/${eurAccountIds[0]}/balances` }, 200, { list: 'Balance' })
    expect(one.items.length).toBeGreaterThan(0)
    await c.call('listAccountBalances', { method: 'GET', url: `${ACCOUNTS}/-/balances?mostRecent=true` }, 200, { list: 'Balance' })
    c.expectConformant()
  })

  it('counterparties and external accounts: create, list, get, update, delete, events', async () => {
    const c = new Conformance(t)
    const body = {
      legalName: 'Parity Supplies GmbH',
      partyType: 'COMPANY',
      nationalIdentifier: { type: 'COMPANY', market: 'DE', number: 'HRB 12345' },
      address: { country: 'DE', city: 'Köln', postalCode: '50667', streetName: 'Hohe Straße', streetNumber: '12' },
      accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }], externalId: 'parity-account' }],
      externalId: 'parity-counterparty',
      metadata: { supplierNumber: '1042' },
    }
    const created = await c.call('createCounterparty', { method: 'POST', url: COUNTERPARTIES, body }, 201, { one: 'Counterparty' })
    await c.call('listCounterparties', { method: 'GET', url: COUNTERPARTIES }, 200, { list: 'Counterparty' })
    await c.call('getCounterparty', { method: 'GET', url: `${COUNTERPARTIES}/external:parity-counterparty` }, 200, { one: 'Counterparty' })
    // The reference's clients set an absent optional field and a new metadata key with replace (see json-patch.ts).
    const patched = [
      { op: 'replace', path: '/email', value: 'billing@parity.example' },
      { op: 'replace', path: '/metadata/region', value: 'west' },
    ]
    await c.call('updateCounterparty', patchRequest(`${COUNTERPARTIES}/${created.id}`, created.etag, patched), 200, { one: 'Counterparty' })
    await c.call('listCounterpartyEvents', { method: 'GET', url: `${COUNTERPARTIES}/${created.id}/events` }, 200, { list: 'Event' })

    await c.call('listExternalAccounts', { method: 'GET', url: `${EXTERNAL_ACCOUNTS}?counterpartyId=${created.id}` }, 200, { list: 'ExternalAccount' })
    const account = await c.call('getExternalAccount', { method: 'GET', url: `${EXTERNAL_ACCOUNTS}/external:parity-account` }, 200, { one: 'ExternalAccount' })
    const alias = [{ op: 'replace', path: '/alias', value: 'Parity main account' }]
    await c.call('updateExternalAccount', patchRequest(`${EXTERNAL_ACCOUNTS}/${account.id}`, account.etag, alias), 200, { one: 'ExternalAccount' })
    const second = { counterpartyId: created.id, market: 'FR', identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }] }
    const added = await c.call('createExternalAccount', { method: 'POST', url: EXTERNAL_ACCOUNTS, body: second }, 201, { one: 'ExternalAccount' })
    await c.call('deleteExternalAccount', { method: 'DELETE', url: `${EXTERNAL_ACCOUNTS}/${added.id}`, headers: { 'if-match': added.etag } }, 204, 'empty')

    const doomed = await c.call('createCounterparty', { method: 'POST', url: COUNTERPARTIES, body: { legalName: 'Gone Ltd' } }, 201, { one: 'Counterparty' })
    await c.call('deleteCounterparty', { method: 'DELETE', url: `${COUNTERPARTIES}/${doomed.id}`, headers: { 'if-match': doomed.etag } }, 204, 'empty')
    c.expectConformant()
  })

  it('credit transfers: create, get, update the date, approve (Owner and approval chain), reject, list, events', async () => {
    const c = new Conformance(t)
    const today = await bankToday(t, t.owner)
    const [operating] = eurAccountIds as [string]
    const create = (overrides: Record<string, unknown>) => ({ method: 'POST' as const, url: CREDIT_TRANSFERS, body: transferBody(operating, supplierAccountId, { date: today, ...overrides }) })

    const payment = await c.call('createCreditTransfer', create({ externalId: 'parity-transfer' }), 201, { one: 'CreditTransfer' })
    expect(payment.approvalSteps).toHaveLength(1)
    await c.call('getCreditTransfer', { method: 'GET', url: `${CREDIT_TRANSFERS}/external:parity-transfer` }, 200, { one: 'CreditTransfer' })
    const step = { approvalStepId: payment.approvalSteps[0].id }
    const approved = await c.call('approveCreditTransfer', { method: 'POST', url: `${CREDIT_TRANSFERS}/${payment.id}:approve`, body: step }, 202, { one: 'CreditTransfer' })
    expect(approved.approvalSteps[0].approver).toBeDefined()

    const later = await c.call('createCreditTransfer', create({ reference: 'Invoice 2026-115' }), 201, { one: 'CreditTransfer' })
    const moved = await c.call('updateCreditTransfer', patchRequest(`${CREDIT_TRANSFERS}/${later.id}`, later.etag, [{ op: 'replace', path: '/date', value: addDays(today, 1) }]), 202, {
      one: 'CreditTransfer',
    })
    await c.call('rejectCreditTransfer', { method: 'POST', url: `${CREDIT_TRANSFERS}/${moved.id}:reject`, body: { reason: 'Duplicate' } }, 202, { one: 'CreditTransfer' })

    // An approval chain approving small payments at creation: its step is autoApproved, named by the chain.
    const chain = await t.request({
      method: 'POST',
      url: APPROVAL_CHAINS,
      body: { name: 'Small payments', trigger: { currency: 'EUR', amountBelow: { currency: 'EUR', value: 10_00 } }, steps: [], autoApprove: true },
    })
    expect(chain.statusCode, chain.body).toBe(201)
    const automatic = await c.call('createCreditTransfer', create({ amount: { currency: 'EUR', value: 5_00 } }), 201, { one: 'CreditTransfer' })
    expect(automatic.approvalSteps[0]).toMatchObject({ autoApproved: true, approvalChainId: chain.json().id })
    await t.request({ method: 'DELETE', url: `${APPROVAL_CHAINS}/${chain.json().id}`, headers: { 'if-match': chain.json().etag } })

    const done = await settled(t, t.owner, 'CREDIT_TRANSFER', payment.id, ['RECONCILED'])
    reconciled = { id: done.id, accountId: operating }
    const read = await c.call('getCreditTransfer', { method: 'GET', url: `${CREDIT_TRANSFERS}/${payment.id}` }, 200, { one: 'CreditTransfer' })
    expect(read.attachedTransactions.length).toBeGreaterThan(0)
    await c.call('listCreditTransfers', { method: 'GET', url: CREDIT_TRANSFERS }, 200, { list: 'CreditTransfer' })
    await c.call('listCreditTransferEvents', { method: 'GET', url: `${CREDIT_TRANSFERS}/${payment.id}/events` }, 200, { list: 'Event' })
    c.expectConformant()
  }, 60_000)

  it('credit transfer batches: create (JSON and a CSV upload), list, get, results, approve, reject; their payments name the batch', async () => {
    const c = new Conformance(t)
    const today = await bankToday(t, t.owner)
    const [operating] = eurAccountIds as [string]
    const payments = [transferBody(operating, supplierAccountId, { date: today, reference: 'Batch 1' }), transferBody(operating, supplierAccountId, { date: today, reference: 'Batch 2' })]
    const create = (body: Record<string, unknown>) => ({ method: 'POST' as const, url: BATCHES, body })
    const batch = await c.call('createCreditTransferBatch', create({ treatment: 'BATCH', payments, externalId: 'parity-batch' }), 201, { one: 'CreditTransferBatch' })
    await c.call('getCreditTransferBatch', { method: 'GET', url: `${BATCHES}/external:parity-batch` }, 200, { one: 'CreditTransferBatch' })
    await c.call('listCreditTransferBatches', { method: 'GET', url: BATCHES }, 200, { list: 'CreditTransferBatch' })
    await c.call('listCreditTransferBatchResults', { method: 'GET', url: `${BATCHES}/${batch.id}/results` }, 200, { list: 'BatchResult' })
    const step = { approvalStepId: batch.approvalSteps[0].id }
    await c.call('approveCreditTransferBatch', { method: 'POST', url: `/payments/v2/credit-transfer-batches/${batch.id}:approve`, body: step }, 202, { one: 'CreditTransferBatch' })
    await c.call('listCreditTransfers', { method: 'GET', url: `${CREDIT_TRANSFERS}?batchId=${batch.id}` }, 200, { list: 'CreditTransfer' })

    const csv = `sourceAccountId,destinationExternalAccountId,amount,currency,date,reference\n${operating},${supplierAccountId},12.50,EUR,${today},Batch 3\nnot,a,row\n`
    const boundary = 'parity'
    const form = `--${boundary}\r\nContent-Disposition: form-data; name="treatment"\r\n\r\nBATCH\r\n--${boundary}\r\nContent-Disposition: form-data; name="skipValidationErrors"\r\n\r\ntrue\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="parity.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`
    const uploaded = await c.call('createCreditTransferBatch', { method: 'POST', url: BATCHES, body: form, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }, 201, { one: 'CreditTransferBatch' })
    expect(uploaded.resultSummary).toEqual({ total: 2, succeeded: 1, failed: 0, skipped: 1 })
    await c.call('listCreditTransferBatchResults', { method: 'GET', url: `${BATCHES}/${uploaded.id}/results?errors=true` }, 200, { list: 'BatchResult' })
    await c.call('rejectCreditTransferBatch', { method: 'POST', url: `/payments/v2/credit-transfer-batches/${uploaded.id}:reject`, body: { reason: 'Duplicate' } }, 202, { one: 'CreditTransferBatch' })
    c.expectConformant()
  })

  it('mandates and direct debits: create, get, list, approve, reject, cancel, events', async () => {
    const c = new Conformance(t)
    const today = await bankToday(t, t.owner)
    const [operating] = eurAccountIds as [string]
    const debtor = await externalAccount(t, t.owner, 'Parity Subscriber GmbH', IBANS.nl)
    const mandateBody = (mandateReference: string) => ({ externalAccountId: debtor, scheme: 'SDD_CORE', creditorReference: 'DE98ZZZ09999999999', mandateReference, signatureDate: '2026-01-15' })

    const mandate = await c.call('createMandate', { method: 'POST', url: MANDATES, body: { ...mandateBody('PARITY-0001'), externalId: 'parity-mandate' } }, 201, { one: 'Mandate' })
    await c.call('getMandate', { method: 'GET', url: `${MANDATES}/external:parity-mandate` }, 200, { one: 'Mandate' })
    await c.call('listMandates', { method: 'GET', url: MANDATES }, 200, { list: 'Mandate' })

    const create = (reference: string) => ({ method: 'POST' as const, url: DIRECT_DEBITS, body: directDebitBody(debtor, operating, { date: today, reference }) })
    const debit = await c.call('createDirectDebit', create('Subscription November'), 201, { one: 'DirectDebit' })
    const step = { approvalStepId: debit.approvalSteps[0].id }
    await c.call('approveDirectDebit', { method: 'POST', url: `${DIRECT_DEBITS}/${debit.id}:approve`, body: step }, 202, { one: 'DirectDebit' })
    const refused = await c.call('createDirectDebit', create('Subscription December'), 201, { one: 'DirectDebit' })
    await c.call('rejectDirectDebit', { method: 'POST', url: `${DIRECT_DEBITS}/${refused.id}:reject`, body: {} }, 202, { one: 'DirectDebit' })

    await settled(t, t.owner, 'DIRECT_DEBIT', debit.id, ['RECONCILED'])
    await c.call('getDirectDebit', { method: 'GET', url: `${DIRECT_DEBITS}/${debit.id}` }, 200, { one: 'DirectDebit' })
    await c.call('listDirectDebits', { method: 'GET', url: DIRECT_DEBITS }, 200, { list: 'DirectDebit' })
    await c.call('listDirectDebitEvents', { method: 'GET', url: `${DIRECT_DEBITS}/${debit.id}/events` }, 200, { list: 'Event' })
    await c.call('listMandateEvents', { method: 'GET', url: `${MANDATES}/${mandate.id}/events` }, 200, { list: 'Event' })

    const spare = await c.call('createMandate', { method: 'POST', url: MANDATES, body: mandateBody('PARITY-0002') }, 201, { one: 'Mandate' })
    await c.call('cancelMandate', { method: 'POST', url: `${MANDATES}/${spare.id}:cancel` }, 202, { one: 'Mandate' })
    c.expectConformant()
  }, 60_000)

  it('transactions: list, get (one reconciled to a credit transfer), update metadata, events', async () => {
    expect(reconciled, 'the credit transfer test reconciles a payment first').toBeDefined()
    const c = new Conformance(t)
    await c.call('listTransactions', { method: 'GET', url: `${TRANSACTIONS}?accountId=${reconciled.accountId}` }, 200, { list: 'Transaction' })
    const [booking] = await bookingsOf(t, t.owner, reconciled.accountId, reconciled.id)
    const transaction = await c.call('getTransaction', { method: 'GET', url: `${TRANSACTIONS}/${booking!.id}` }, 200, { one: 'Transaction' })
    expect(transaction.attachedTransactables).toContainEqual({ type: 'CREDIT_TRANSFER', id: reconciled.id })
    const metadata = [{ op: 'replace', path: '/metadata/invoice', value: 'INV-2026-0042' }]
    await c.call('updateTransaction', patchRequest(`${TRANSACTIONS}/${transaction.id}`, transaction.etag, metadata), 200, { one: 'Transaction' })
    await c.call('listTransactionEvents', { method: 'GET', url: `${TRANSACTIONS}/${transaction.id}/events` }, 200, { list: 'Event' })
    c.expectConformant()
  })

  it('pending transactions: list, get (the one the reconciled credit transfer showed until it was booked), events', async () => {
    expect(reconciled, 'the credit transfer test reconciles a payment first').toBeDefined()
    const c = new Conformance(t)
    await c.call('listPendingTransactions', { method: 'GET', url: PENDING_TRANSACTIONS }, 200, { list: 'PendingTransaction' })
    const booked = await c.call('listPendingTransactions', { method: 'GET', url: `${PENDING_TRANSACTIONS}?accountId=${reconciled.accountId}&status=BOOKED` }, 200, {
      list: 'PendingTransaction',
    })
    const [booking] = await bookingsOf(t, t.owner, reconciled.accountId, reconciled.id)
    const shown = booked.items.find((pending: { bookedTransactionId?: string }) => pending.bookedTransactionId === booking!.id)
    expect(shown, 'the pending transaction its booking ended').toBeDefined()
    await c.call('getPendingTransaction', { method: 'GET', url: `${PENDING_TRANSACTIONS}/${shown.id}` }, 200, { one: 'PendingTransaction' })
    await c.call('listPendingTransactionEvents', { method: 'GET', url: `${PENDING_TRANSACTIONS}/${shown.id}/events` }, 200, { list: 'Event' })
    c.expectConformant()
  })

  it('webhooks: the subscription operations, and every delivery of the events above', async () => {
    const c = subscribing
    await c.call('listWebhooks', { method: 'GET', url: WEBHOOKS }, 200, { list: 'Webhook' })
    await c.call('getWebhook', { method: 'GET', url: `${WEBHOOKS}/${webhook.id}` }, 200, { one: 'Webhook' })
    const replacement = { name: 'Parity (all resources)', url: receiver.url, filter: ALL_RESOURCES }
    await c.call('replaceWebhook', { method: 'PUT', url: `${WEBHOOKS}/${webhook.id}`, body: replacement }, 200, { one: 'Webhook' })
    const key = await c.call('createWebhookKey', { method: 'POST', url: `${WEBHOOKS}/${webhook.id}/keys` }, 201, { one: 'WebhookKey' })
    await c.call('deleteWebhookKey', { method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}/keys/${key.id}` }, 204, 'empty')

    // Every resource above has had events by now; wait until the reconciled payment's last one has arrived too.
    await receiver.waitFor((received) => received.some((r) => r.json.event?.entityId === reconciled?.id && r.json.event.name === 'RECONCILED'), 15_000)
    const resources = new Set(receiver.received.map((r) => r.json.resource as string))
    expect([...resources]).toEqual(expect.arrayContaining(['counterparties', 'external_accounts', 'transactions', 'credit_transfers', 'direct_debits', 'mandates']))
    for (const resource of resources) expect(ENTITY_SCHEMA, `a reference schema for ${resource}`).toHaveProperty(resource)
    for (const delivery of receiver.received) {
      const what = `webhook ${delivery.json.resource}`
      c.check(what, 'EventWebhookPayload', delivery.json)
      const schema = ENTITY_SCHEMA[delivery.json.resource as string]
      if (schema) c.check(what, schema, delivery.json.entity, '/entity')
    }
    await c.call('deleteWebhook', { method: 'DELETE', url: `${WEBHOOKS}/${webhook.id}` }, 204, 'empty')
    // One line per distinct problem: the same field missing from a hundred deliveries is one finding.
    expect([...new Set(c.violations)], `\n${[...new Set(c.violations)].join('\n')}\n`).toEqual([])
  }, 30_000)
})
