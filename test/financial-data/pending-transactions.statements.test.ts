import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError } from '../conventions/expectations.js'
import { addDays, todayUtc } from '../payments/lifecycle-helpers.js'
import { postStatement, sandboxAccounts, type SandboxAccount } from './statements-helpers.js'
import { getPending, listPending, PENDING_TRANSACTIONS, pendingEvents, type PendingJson } from './pending-transactions-helpers.js'

/**
 * Issue 13, pending transactions from imported reports: a camt.052 PDNG entry with the bank's reference
 * (AcctSvcrRef) is recorded once, updated when reported otherwise, and ended by the booked entry with the same
 * reference; the list pages and filters them.
 */

interface Entry {
  reference?: string
  amount: string
  creditDebit?: 'CRDT' | 'DBIT'
  status: 'PDNG' | 'BOOK' | 'INFO'
  date: string
  info?: string
}

/** A camt.052.001.02 intraday report of one account with these entries. */
function camt052(reportId: string, iban: string, entries: Entry[]): string {
  const ntry = (entry: Entry) => `
      <Ntry>
        <Amt Ccy="EUR">${entry.amount}</Amt>
        <CdtDbtInd>${entry.creditDebit ?? 'CRDT'}</CdtDbtInd>
        <Sts>${entry.status}</Sts>
        ${entry.status === 'BOOK' ? `<BookgDt><Dt>${entry.date}</Dt></BookgDt>` : ''}
        <ValDt><Dt>${entry.date}</Dt></ValDt>
        ${entry.reference ? `<AcctSvcrRef>${entry.reference}</AcctSvcrRef>` : ''}
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <AddtlNtryInf>${entry.info ?? 'SEPA-GUTSCHRIFT'}</AddtlNtryInf>
      </Ntry>`
  return `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.052.001.02">
  <BkToCstmrAcctRpt>
    <GrpHdr><MsgId>${reportId}</MsgId><CreDtTm>${todayUtc()}T10:00:00</CreDtTm></GrpHdr>
    <Rpt>
      <Id>${reportId}</Id>
      <CreDtTm>${todayUtc()}T10:00:00</CreDtTm>
      <Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>EUR</Ccy></Acct>${entries.map(ntry).join('')}
    </Rpt>
  </BkToCstmrAcctRpt>
</Document>`
}

async function importReport(xml: string, as: Credentials): Promise<{ statements: Array<Record<string, unknown>> }> {
  const response = await postStatement(t, xml, { as })
  expect(response.statusCode, response.body).toBe(201)
  return response.json()
}

let t: TestApp
let as: Credentials
let accounts: Record<'operating' | 'payroll' | 'nordic', SandboxAccount>
const today = todayUtc()

beforeAll(async () => {
  t = await startTestApp({ paymentWorkerIntervalMilliseconds: false, webhooks: { startWorker: false } })
  as = await t.newOrganization('Pending Reports GmbH')
  accounts = await sandboxAccounts(t, as)
})
afterAll(() => t.close())

describe('a camt.052 PDNG entry', () => {
  let pending: PendingJson

  it('becomes a pending transaction of the account, known by its AcctSvcrRef', async () => {
    const xml = camt052('RPT-PDNG-1', accounts.operating.iban, [
      { reference: 'PDNG-0001', amount: '250.00', status: 'PDNG', date: addDays(today, 1), info: 'SEPA-GUTSCHRIFT VORGEMERKT' },
      // Without the bank's reference nothing could end it: counted as not booked, not recorded.
      { amount: '75.00', status: 'PDNG', date: today },
      { reference: 'INFO-0001', amount: '10.00', status: 'INFO', date: today },
    ])
    const imported = await importReport(xml, as)
    expect(imported.statements[0]).toMatchObject({ entriesFound: 3, entriesNotBooked: 3, transactionsBooked: 0, pendingTransactionsRecorded: 1 })

    const listed = (await listPending(t, as, `?accountId=${accounts.operating.id}`)).items
    expect(listed).toHaveLength(1)
    pending = listed[0]!
    expect(pending).toMatchObject({
      accountId: accounts.operating.id,
      amount: { currency: 'EUR', value: 250_00 },
      date: addDays(today, 1),
      valueDate: addDays(today, 1),
      description: 'SEPA-GUTSCHRIFT VORGEMERKT',
      references: { entryReference: 'PDNG-0001' },
      bankTransactionCode: { domain: 'PMNT', family: 'RCDT', subfamily: 'ESCT' },
      status: 'PENDING',
      version: 1,
    })
  })

  it('is not recorded twice when reported again; reported otherwise, it is UPDATED', async () => {
    const same = camt052('RPT-PDNG-2', accounts.operating.iban, [{ reference: 'PDNG-0001', amount: '250.00', status: 'PDNG', date: addDays(today, 1), info: 'SEPA-GUTSCHRIFT VORGEMERKT' }])
    expect((await importReport(same, as)).statements[0]).toMatchObject({ pendingTransactionsRecorded: 0 })
    expect(await getPending(t, as, pending.id)).toMatchObject({ version: 1, date: addDays(today, 1) })

    const moved = camt052('RPT-PDNG-3', accounts.operating.iban, [{ reference: 'PDNG-0001', amount: '250.00', status: 'PDNG', date: addDays(today, 2), info: 'SEPA-GUTSCHRIFT VORGEMERKT' }])
    expect((await importReport(moved, as)).statements[0]).toMatchObject({ pendingTransactionsRecorded: 0 })
    expect(await getPending(t, as, pending.id)).toMatchObject({ version: 2, date: addDays(today, 2), status: 'PENDING' })
    expect((await listPending(t, as, `?accountId=${accounts.operating.id}`)).items).toHaveLength(1)
  })

  it('ends BOOKED, naming the transaction, when a booked entry with the same AcctSvcrRef arrives', async () => {
    const booked = camt052('RPT-BOOK-1', accounts.operating.iban, [{ reference: 'PDNG-0001', amount: '250.00', status: 'BOOK', date: today, info: 'SEPA-GUTSCHRIFT' }])
    expect((await importReport(booked, as)).statements[0]).toMatchObject({ transactionsBooked: 1, pendingTransactionsRecorded: 0 })
    const transactions = await t.request({ method: 'GET', url: `/financial-data/v2/transactions?accountId=${accounts.operating.id}&date=${today}&limit=500`, as })
    const transaction = transactions.json<{ items: Array<{ id: string; references: { entryReference: string } }> }>().items.find((item) => item.references.entryReference === 'PDNG-0001')
    expect(transaction).toBeDefined()

    expect(await getPending(t, as, pending.id)).toMatchObject({ status: 'BOOKED', bookedTransactionId: transaction!.id, version: 3 })
    expect((await listPending(t, as, `?accountId=${accounts.operating.id}`)).items).toEqual([])
    const events = await pendingEvents(t, as, pending.id)
    expect(events.map((event) => [event.type, event.name, event.originator, event.entityVersion])).toEqual([
      ['CREATED', 'CREATED', 'BANK', 1],
      ['UPDATED', 'UPDATED', 'BANK', 2],
      ['UPDATED', 'BOOKED', 'BANK', 3],
    ])

    // An older report of it, imported after the booking, shows nothing pending again.
    const late = camt052('RPT-PDNG-4', accounts.operating.iban, [{ reference: 'PDNG-0001', amount: '250.00', status: 'PDNG', date: today }])
    expect((await importReport(late, as)).statements[0]).toMatchObject({ pendingTransactionsRecorded: 0 })
    expect(await getPending(t, as, pending.id)).toMatchObject({ status: 'BOOKED', version: 3 })
  })
})

describe('the list', () => {
  const dates = [addDays(today, 3), addDays(today, 4), addDays(today, 5)]

  beforeAll(async () => {
    const entries: Entry[] = dates.map((date, index) => ({ reference: `LIST-${index + 1}`, amount: `${index + 1}0.00`, creditDebit: 'DBIT', status: 'PDNG', date }))
    await importReport(camt052('RPT-LIST-1', accounts.payroll.iban, entries), as)
    await importReport(camt052('RPT-LIST-2', accounts.operating.iban, [{ reference: 'LIST-OTHER', amount: '1.00', status: 'PDNG', date: dates[1]! }]), as)
  })

  it('pages newest provisional date first, following nextToken', async () => {
    const first = await listPending(t, as, `?accountId=${accounts.payroll.id}&limit=2`)
    expect(first.items.map((item) => item.references.entryReference)).toEqual(['LIST-3', 'LIST-2'])
    expect(first.items.map((item) => item.amount.value)).toEqual([-30_00, -20_00])
    expect(first.limit).toBe(2)
    expect(first.nextToken).not.toBe('')
    const second = await listPending(t, as, `?accountId=${accounts.payroll.id}&limit=2&token=${first.nextToken}`)
    expect(second.items.map((item) => item.references.entryReference)).toEqual(['LIST-1'])
    expect(second.nextToken).toBe('')
    expect(second.token).toBe(first.nextToken)

    const changedFilter = await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}?accountId=${accounts.operating.id}&limit=2&token=${first.nextToken}`, as })
    expectError(changedFilter, 400, 'invalid_token')
  })

  it('filters by account, currency, one day and a range of days; an inverted range is a 400', async () => {
    const references = async (query: string) => (await listPending(t, as, query)).items.map((item) => item.references.entryReference)
    // Two accounts' entries of one day come in id order between those of the other days.
    const all = await references('?limit=500')
    expect([all[0], all[3]]).toEqual(['LIST-3', 'LIST-1'])
    expect(all.slice(1, 3).sort()).toEqual(['LIST-2', 'LIST-OTHER'])
    expect(await references(`?accountId=${accounts.operating.id}`)).toEqual(['LIST-OTHER'])
    expect(await references(`?accountId=${accounts.payroll.id}&date=${dates[1]}`)).toEqual(['LIST-2'])
    expect(await references(`?accountId=${accounts.payroll.id}&date[eq]=${dates[0]}`)).toEqual(['LIST-1'])
    expect(await references(`?accountId=${accounts.payroll.id}&date[gte]=${dates[1]}`)).toEqual(['LIST-3', 'LIST-2'])
    expect(await references(`?accountId=${accounts.payroll.id}&date[lte]=${dates[1]}`)).toEqual(['LIST-2', 'LIST-1'])
    expect(await references(`?accountId=${accounts.payroll.id}&date[gte]=${dates[1]}&date[lte]=${dates[1]}`)).toEqual(['LIST-2'])
    expect(await references('?currency=SEK')).toEqual([])
    expect((await references('?currency=EUR')).sort()).toEqual(['LIST-1', 'LIST-2', 'LIST-3', 'LIST-OTHER'])

    const inverted = await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}?date[gte]=${dates[2]}&date[lte]=${dates[0]}`, as })
    expect(expectError(inverted, 400, 'invalid_request').details).toEqual([expect.objectContaining({ field: 'date[gte]' })])
    expectError(await t.request({ method: 'GET', url: `${PENDING_TRANSACTIONS}?status=GONE`, as }), 400, 'invalid_request')
  })
})
