import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { writeCamt054, writePain002 } from '../../src/connectivity/bank-side/index.js'
import type { Credentials } from '../../src/iam/index.js'
import type { Counterparty } from '../../src/payments/counterparties/index.js'
import type { ExternalAccount } from '../../src/payments/external-accounts/index.js'
import { endToEndIdOf } from '../../src/shared/ids.js'
import { filesConnection, OWN_IBAN, sentInOneFile, type FilesSetup } from '../connectivity/files-out-helpers.js'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import {
  CREDIT_TRANSFERS,
  DIRECT_DEBITS,
  MANDATES,
  createDirectDebit,
  createMandate,
  createTransfer,
  directDebitBody,
  expectStatus,
  getPayment,
  setup,
  transferBody,
  type PaymentJson,
  type Setup,
} from './lifecycle-helpers.js'
import { COUNTERPARTIES, EXTERNAL_ACCOUNTS, createCounterparty, expectError, listAll, patch, remove } from './payments-helpers.js'

/**
 * Issue 13: DELETE /payments/v2/external-accounts/{id} — If-Match required, 204, then 410; the counterparty no
 * longer lists it and moves on; refused (409) while a payment in progress or a mandate not CANCELLED uses it.
 */
let t: TestApp
let org: Setup
let files: FilesSetup
beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false })
  org = await setup(t)
  files = await filesConnection(t, t.owner)
})
afterAll(() => t.close())

let sequence = 0
/** A counterparty with two accounts: the first to delete (externalId `doomed-N`), the second to keep. */
async function counterpartyWithAccounts(as?: Credentials): Promise<{ counterparty: Counterparty; doomed: ExternalAccount; kept: ExternalAccount }> {
  sequence += 1
  const counterparty = await createCounterparty(
    t,
    {
      accounts: [
        { market: 'DE', externalId: `doomed-${sequence}`, identifiers: [{ market: 'DE', type: 'IBAN', number: IBANS.de }] },
        { market: 'FR', identifiers: [{ market: 'FR', type: 'IBAN', number: IBANS.fr }] },
      ],
    },
    as,
  )
  return { counterparty, doomed: counterparty.accounts[0]!, kept: counterparty.accounts[1]! }
}

const url = (account: Pick<ExternalAccount, 'id'>) => `${EXTERNAL_ACCOUNTS}/${account.id}`

async function current(account: Pick<ExternalAccount, 'id'>): Promise<ExternalAccount> {
  const response = await t.request({ method: 'GET', url: url(account) })
  expectStatus(response, 200)
  return response.json<ExternalAccount>()
}

/** DELETE with the account's current etag. */
async function removeNow(account: Pick<ExternalAccount, 'id'>): Promise<LightMyRequestResponse> {
  return remove(t, url(account), (await current(account)).etag)
}

function expectInUse(response: LightMyRequestResponse, what: RegExp): void {
  const body = expectError(response, 409, 'conflict')
  expect(body.message).toMatch(what)
}

describe('DELETE /payments/v2/external-accounts/{id}', () => {
  it('deletes with the current etag: 204, then 410 on GET, PATCH and DELETE by id and externalId; gone from the lists', async () => {
    const { counterparty, doomed, kept } = await counterpartyWithAccounts()
    const deleted = await remove(t, `${EXTERNAL_ACCOUNTS}/external:${doomed.externalId}`, doomed.etag)
    expect(deleted.statusCode, deleted.body).toBe(204)
    expect(deleted.body).toBe('')
    for (const path of [url(doomed), `${EXTERNAL_ACCOUNTS}/external:${doomed.externalId}`]) {
      expectError(await t.request({ method: 'GET', url: path }), 410, 'gone')
      expectError(await patch(t, path, 'version:2', [{ op: 'add', path: '/alias', value: 'x' }]), 410, 'gone')
      expectError(await remove(t, path, 'version:2'), 410, 'gone')
    }
    const ids = (await listAll<ExternalAccount>(t, EXTERNAL_ACCOUNTS)).map((account) => account.id)
    expect(ids).toContain(kept.id)
    expect(ids).not.toContain(doomed.id)
    expect(await listAll(t, `${EXTERNAL_ACCOUNTS}?counterpartyId=${counterparty.id}`)).toEqual([kept])
  })

  it('moves the counterparty on: it no longer lists the account, its etag changes, and both record events', async () => {
    const { counterparty, doomed, kept } = await counterpartyWithAccounts()
    expectStatus(await remove(t, url(doomed), doomed.etag), 204)
    const after = (await t.request({ method: 'GET', url: `${COUNTERPARTIES}/${counterparty.id}` })).json<Counterparty>()
    expect(after).toMatchObject({ version: 2, etag: 'version:2', accounts: [kept] })
    const stale = await patch(t, `${COUNTERPARTIES}/${counterparty.id}`, counterparty.etag, [{ op: 'replace', path: '/legalName', value: 'x' }])
    expectError(stale, 412, 'precondition_failed')
    const events = await listAll<{ type: string; name: string; entityVersion: number }>(t, `${COUNTERPARTIES}/${counterparty.id}/events`)
    expect(events).toMatchObject([
      { type: 'CREATED', name: 'CREATED', entityVersion: 1 },
      { type: 'UPDATED', name: 'EXTERNAL_ACCOUNT_DELETED', entityVersion: 2 },
    ])
    const accountEvents = await t.db.database.db.selectFrom('events').selectAll().where('entity_id', '=', doomed.id).orderBy('sequence').execute()
    expect(accountEvents.map((event) => [event.type, event.name, Number(event.entity_version)])).toEqual([
      ['CREATED', 'CREATED', 1],
      ['DELETED', 'DELETED', 2],
    ])
  })

  it('needs If-Match (428) and the current etag (412), and deletes nothing without them', async () => {
    const { doomed } = await counterpartyWithAccounts()
    expectError(await t.request({ method: 'DELETE', url: url(doomed) }), 428, 'precondition_required')
    const patched = await patch(t, url(doomed), doomed.etag, [{ op: 'add', path: '/alias', value: 'renamed' }])
    expectStatus(patched, 200)
    expectError(await remove(t, url(doomed), doomed.etag), 412, 'precondition_failed')
    expect(await current(doomed)).toEqual(patched.json())
    expectStatus(await remove(t, url(doomed), patched.json().etag), 204)
  })

  it('answers 404 for an unknown account and another organization’s, 403 to a read-only key; deletes nothing', async () => {
    const stranger = await t.newOrganization('Stranger')
    const theirs = await counterpartyWithAccounts(stranger)
    expectError(await remove(t, url(theirs.doomed), theirs.doomed.etag), 404, 'not_found')
    expectError(await remove(t, `${EXTERNAL_ACCOUNTS}/external:${theirs.doomed.externalId}`, theirs.doomed.etag), 404, 'not_found')
    expectError(await remove(t, `${EXTERNAL_ACCOUNTS}/01900000-0000-7000-8000-000000000000`, 'version:1'), 404, 'not_found')
    const ours = await counterpartyWithAccounts()
    const body = expectError(await remove(t, url(ours.doomed), ours.doomed.etag, await t.newKey('read-only')), 403, 'forbidden')
    expect(body.message).toContain('external_accounts:delete')
    expect(await current(ours.doomed)).toEqual(ours.doomed)
    expect((await t.request({ method: 'GET', url: url(theirs.doomed), as: stranger })).json()).toEqual(theirs.doomed)
  })

  it('leaves a deleted account’s externalId taken, and payments can no longer be made to it', async () => {
    const { counterparty, doomed } = await counterpartyWithAccounts()
    expectStatus(await remove(t, url(doomed), doomed.etag), 204)
    const again = await t.request({
      method: 'POST',
      url: EXTERNAL_ACCOUNTS,
      body: { counterpartyId: counterparty.id, market: 'DE', externalId: doomed.externalId, identifiers: doomed.identifiers },
    })
    expectError(again, 409, 'external_id_taken')
    const payment = await t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(org.eurAccountIds[0]!, doomed.id) })
    expect(expectError(payment, 400, 'invalid_request').details).toEqual([
      { code: 'invalid_value', field: 'destination.id', error: 'is not an external account of this organization' },
    ])
  })
})

describe('DELETE /payments/v2/external-accounts/{id}: refused while in use', () => {
  it('409 while a CREATED credit transfer pays to it; deleted once the transfer is CANCELLED', async () => {
    const { doomed } = await counterpartyWithAccounts()
    const transfer = await createTransfer(t, t.owner, transferBody(org.eurAccountIds[0]!, doomed.id))
    expectInUse(await removeNow(doomed), new RegExp(`credit transfer ${transfer.id}, which is CREATED`))
    expect(await current(doomed)).toEqual(doomed)
    expectStatus(await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${transfer.id}:cancel` }), 202)
    expectStatus(await removeNow(doomed), 204)
  })

  it('409 while a REJECTED transfer’s sibling is still CREATED; deleted once both are final', async () => {
    const { doomed } = await counterpartyWithAccounts()
    const rejected = await createTransfer(t, t.owner, transferBody(org.eurAccountIds[0]!, doomed.id))
    const waiting = await createTransfer(t, t.owner, transferBody(org.eurAccountIds[0]!, doomed.id))
    expectStatus(await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${rejected.id}:reject` }), 202)
    expectInUse(await removeNow(doomed), new RegExp(`credit transfer ${waiting.id}, which is CREATED`))
    expectStatus(await t.request({ method: 'POST', url: `${CREDIT_TRANSFERS}/${waiting.id}:reject` }), 202)
    expectStatus(await removeNow(doomed), 204)
  })

  it('409 while a direct debit collects from it, then while its mandate is not CANCELLED', async () => {
    const { doomed } = await counterpartyWithAccounts()
    const mandate = await createMandate(t, t.owner, doomed.id, `MANDATE-DELETE-${sequence}`)
    const debit = await createDirectDebit(t, t.owner, directDebitBody(doomed.id, org.eurAccountIds[0]!))
    expectInUse(await removeNow(doomed), new RegExp(`direct debit ${debit.id}, which is CREATED`))
    expectStatus(await t.request({ method: 'POST', url: `${DIRECT_DEBITS}/${debit.id}:cancel` }), 202)
    expectInUse(await removeNow(doomed), new RegExp(`the CREATED mandate ${mandate.id}; cancel the mandate first`))
    expectStatus(await t.request({ method: 'POST', url: `${MANDATES}/${mandate.id}:cancel` }), 202)
    expectStatus(await removeNow(doomed), 204)
  })

  describe('a payment the bank has', () => {
    const upload = (xml: string) =>
      t.request({ method: 'POST', url: `/connectivity/v2/connections/${files.connection.id}/files`, body: xml, headers: { 'content-type': 'application/xml' } })

    it('409 while SENT; deleted once the bank rejects it (pain.002 RJCT: FAILED)', async () => {
      const { doomed } = await counterpartyWithAccounts()
      const { messageId, payments } = await sentInOneFile(t, t.owner, files, doomed.id, [31_00])
      const sent = payments[0]!
      expectInUse(await removeNow(doomed), new RegExp(`credit transfer ${sent.id}, which is SENT`))
      const report = writePain002({ version: 'pain.002.001.10', messageId: `RJ-${messageId.slice(-30)}`, originalMessageId: messageId, groupStatus: 'RJCT', groupReason: { code: 'AC04' } })
      expectStatus(await upload(report), 201)
      expect((await getPayment(t, t.owner, 'CREDIT_TRANSFER', sent.id)).status).toBe('FAILED')
      expectStatus(await removeNow(doomed), 204)
    })

    it('409 while SENT; deleted once the booking reconciles it (camt.054: RECONCILED)', async () => {
      const { doomed } = await counterpartyWithAccounts()
      const { payments } = await sentInOneFile(t, t.owner, files, doomed.id, [32_00])
      const sent: PaymentJson = payments[0]!
      expectInUse(await removeNow(doomed), /which is SENT/)
      const today = new Date().toISOString().slice(0, 10)
      const booking = {
        amount: 32_00,
        creditDebit: 'DBIT' as const,
        bookingDate: today,
        valueDate: today,
        accountServicerReference: `REF-DELETE-${sent.id}`,
        bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
        transactions: [{ references: { endToEndId: endToEndIdOf(sent.id) }, amount: 32_00, creditDebit: 'DBIT' as const }],
      }
      const camt = writeCamt054({ messageId: `NTF-${sent.id.slice(-20)}`, creationDateTime: new Date(), notifications: [{ id: 'N1', account: { iban: OWN_IBAN, currency: 'EUR' }, entries: [booking] }] })
      expectStatus(await upload(camt), 201)
      expect((await getPayment(t, t.owner, 'CREDIT_TRANSFER', sent.id)).status).toBe('RECONCILED')
      expectStatus(await removeNow(doomed), 204)
    })
  })

  it('several payments made together while the account is deleted: they do not wait for each other, and either the deletion or the payments happen', async () => {
    for (let round = 0; round < 3; round += 1) {
      const { doomed } = await counterpartyWithAccounts()
      const answers = await Promise.all([
        ...Array.from({ length: 6 }, () => t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(org.eurAccountIds[0]!, doomed.id) })),
        remove(t, url(doomed), doomed.etag),
      ])
      const deleted = answers.pop()!
      const made = answers.filter((payment) => payment.statusCode === 201)
      for (const refused of answers.filter((payment) => payment.statusCode !== 201)) expectError(refused, 400, 'invalid_request')
      if (deleted.statusCode === 204) expect(made).toHaveLength(0)
      else expect(made.length).toBeGreaterThan(0)
    }
  })

  it('a payment made while the account is deleted: exactly one of them happens', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { doomed } = await counterpartyWithAccounts()
      const [payment, deleted] = await Promise.all([
        t.request({ method: 'POST', url: CREDIT_TRANSFERS, body: transferBody(org.eurAccountIds[0]!, doomed.id) }),
        remove(t, url(doomed), doomed.etag),
      ])
      if (payment.statusCode === 201) {
        expectInUse(deleted, /which is CREATED/)
        expect((await current(doomed)).id).toBe(doomed.id)
      } else {
        expectError(payment, 400, 'invalid_request')
        expectStatus(deleted, 204)
      }
    }
  })
})
