import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import {
  byReference,
  camtFixture,
  listBalances,
  listTransactions,
  postStatement,
  sandboxAccounts,
  writtenRows,
  type SandboxAccount,
} from './statements-helpers.js'

let t: TestApp
let accounts: Record<'operating' | 'payroll' | 'nordic', SandboxAccount>

beforeAll(async () => {
  // Webhook deliveries are only counted here, never sent.
  t = await startTestApp({ webhooks: { startWorker: false } })
  accounts = await sandboxAccounts(t)
})
afterAll(() => t.close())

describe('camt.053.001.02: two accounts in one file', () => {
  let xml: string
  let firstImport: Record<string, unknown>

  beforeAll(async () => {
    xml = camtFixture('camt053-001-02-two-accounts.xml', { operating: accounts.operating.iban, payroll: accounts.payroll.iban })
    const response = await postStatement(t, xml)
    expect(response.statusCode, response.body).toBe(201)
    firstImport = response.json()
  })

  it('answers 201 with a summary per statement', () => {
    expect(firstImport).toMatchObject({
      messageType: 'camt.053.001.02',
      messageId: 'KASADEFF-20260302-053-000187',
      statementsFound: 2,
      transactionsBooked: 8,
      transactionsAlreadyPresent: 0,
    })
    const [operating, payroll] = firstImport.statements as Array<Record<string, unknown>>
    expect(operating).toMatchObject({
      statementId: '20260302-OPERATING-0042',
      electronicSequenceNumber: '42',
      accountId: accounts.operating.id,
      iban: accounts.operating.iban,
      currency: 'EUR',
      entriesFound: 5,
      entriesNotBooked: 1,
      transactionsBooked: 6,
      transactionsAlreadyPresent: 0,
    })
    expect(operating!.balances).toEqual([
      { code: 'OPBD', type: 'BOOKED', reportedType: 'OPEN', amount: { currency: 'EUR', value: 1500000, stringValue: '15000.00' }, localDate: '2026-03-02' },
      { code: 'CLBD', type: 'BOOKED', reportedType: 'CLOSE', amount: { currency: 'EUR', value: 1272685, stringValue: '12726.85' }, localDate: '2026-03-02' },
      { code: 'CLAV', type: 'AVAILABLE', reportedType: 'CLOSE', amount: { currency: 'EUR', value: 1272685, stringValue: '12726.85' }, localDate: '2026-03-02' },
    ])
    expect(payroll).toMatchObject({ statementId: '20260302-PAYROLL-0017', accountId: accounts.payroll.id, entriesFound: 2, transactionsBooked: 2 })
  })

  it('books a credit with its structured reference, counterparty, end-to-end id and bank transaction code', async () => {
    const credit = byReference(await listTransactions(t, accounts.operating.id), '2026030200012345')
    expect(credit).toMatchObject({
      accountId: accounts.operating.id,
      amount: { currency: 'EUR', value: 238000, stringValue: '2380.00' },
      date: '2026-03-02',
      valueDate: '2026-03-02',
      description: 'SEPA-GUTSCHRIFT',
      reference: 'RF18539007547034',
      references: { endToEndId: 'INV-2026-0042', entryReference: '2026030200012345' },
      counterparty: {
        name: 'Nordlicht Handels GmbH',
        account: { market: 'DE', identifiers: [{ type: 'IBAN', market: 'DE', number: 'DE89370400440532013000' }], bic: 'COBADEFFXXX' },
      },
      bankTransactionCode: { domain: 'PMNT', family: 'RCDT', subfamily: 'ESCT', proprietary: { code: 'NTRF+166+00931', issuer: 'DK' } },
      reconciliationStatus: 'NOT_RECONCILED',
      returned: false,
    })
  })

  it('splits a batched debit whose transaction details carry their amounts, one transaction per payment', async () => {
    const transactions = await listTransactions(t, accounts.operating.id)
    const parts = [1, 2, 3].map((n) => byReference(transactions, `2026030200012346/${n}`))
    expect(parts.map((part) => part.amount.value)).toEqual([-120000, -255050, -50025])
    expect(parts.reduce((sum, part) => sum + part.amount.value, 0)).toBe(-425075)
    expect(parts[0]).toMatchObject({
      reference: 'Invoice 7781',
      references: { endToEndId: 'SUP-7781' },
      counterparty: { name: 'Papeterie du Sud SARL', account: { identifiers: [{ number: 'FR1420041010050500013M02606' }], bic: 'PSSTFRPPXXX' } },
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
    })
    expect(parts[1]).toMatchObject({ reference: 'RF712348231', references: { endToEndId: 'SUP-7782' }, counterparty: { name: 'Acme Logistics B.V.' } })
    // Unstructured lines are joined; NOTPROVIDED is no end-to-end id.
    expect(parts[2]).toMatchObject({ reference: 'Rechnung 2026/118 Kunde 4711', counterparty: { name: 'Kantine & Co. KG' } })
    expect(parts[2]!.references.endToEndId).toBeUndefined()
    expect(transactions.some((transaction) => transaction.references.entryReference === '2026030200012346')).toBe(false)
  })

  it('books a direct debit with its mandate and a fee with its own value date; skips the pending entry', async () => {
    const transactions = await listTransactions(t, accounts.operating.id)
    expect(transactions).toHaveLength(6)
    expect(byReference(transactions, '2026030200012347')).toMatchObject({
      amount: { value: -38990 },
      references: { endToEndId: 'E2E-STROM-0326', mandateReference: 'MNDT-2025-0815' },
      counterparty: { name: 'Stadtwerke Beispielstadt', account: { identifiers: [{ number: 'DE02120300000000202051' }] } },
      reference: 'Abschlag Strom Maerz 2026 Vertragskonto 40021177',
    })
    const fee = transactions.find((transaction) => transaction.references.entryReference.startsWith('NtryRef/0004/'))
    expect(fee).toMatchObject({
      amount: { value: -1250, stringValue: '-12.50' },
      date: '2026-03-02',
      valueDate: '2026-02-28',
      description: 'Kontofuehrungsgebuehr Februar 2026',
      bankTransactionCode: { domain: 'ACMT', family: 'MDOP', subfamily: 'CHRG' },
    })
    expect(transactions.some((transaction) => transaction.amount.value === 100000)).toBe(false)
    // The balance invariant of the statement: opening + booked = closing.
    expect(1500000 + transactions.reduce((sum, transaction) => sum + transaction.amount.value, 0)).toBe(1272685)
  })

  it('books a batch without per-transaction amounts as one transaction with the entry amount', async () => {
    const transactions = await listTransactions(t, accounts.payroll.id)
    expect(transactions).toHaveLength(2)
    expect(byReference(transactions, '2026030200022001')).toMatchObject({
      amount: { value: -3060000 },
      reference: 'SALARY-2026-03',
      description: 'LOHN/GEHALT SAMMLER',
      bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'SALA' },
    })
    expect(byReference(transactions, '2026030200022002')).toMatchObject({
      amount: { value: 500000 },
      reference: 'Liquiditaetsausgleich Maerz',
      counterparty: { name: 'Kassa Test GmbH', account: { identifiers: [{ number: accounts.operating.iban }] } },
    })
  })

  it('records the opening and closing balances (PRCD as the previous day’s close)', async () => {
    const operating = await listBalances(t, accounts.operating.id)
    expect(operating.map(({ type, reportedType, amount, localDate }) => [type, reportedType, amount.value, localDate]).sort()).toEqual(
      [
        ['AVAILABLE', 'CLOSE', 1272685, '2026-03-02'],
        ['BOOKED', 'CLOSE', 1272685, '2026-03-02'],
        ['BOOKED', 'OPEN', 1500000, '2026-03-02'],
      ].sort(),
    )
    const payroll = await listBalances(t, accounts.payroll.id)
    expect(payroll.map(({ type, reportedType, amount, localDate }) => [type, reportedType, amount.value, localDate]).sort()).toEqual(
      [
        ['BOOKED', 'CLOSE', 2240000, '2026-03-02'],
        ['BOOKED', 'CLOSE', 4800000, '2026-02-27'],
      ].sort(),
    )
  })

  it('writes a CREATED event for each booked transaction, by the bank', async () => {
    const [transaction] = await listTransactions(t, accounts.payroll.id)
    const events = await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${transaction!.id}/events` })
    expect(events.json().items).toEqual([expect.objectContaining({ id: 1, type: 'CREATED', name: 'BOOKED', originator: 'BANK', entityVersion: 1 })])
  })

  it('queues a webhook delivery for each booked transaction, as every recorded event does', async () => {
    const organization = await t.newOrganization('Webhook subscriber')
    const { operating, payroll } = await sandboxAccounts(t, organization)
    const subscribe = (filter: unknown) =>
      t.db.database.db
        .insertInto('webhooks')
        .values({ id: crypto.randomUUID(), organization_id: organization.organizationId, name: null, url: 'https://hooks.example.com/kassa', filter: JSON.stringify(filter), version: 1, created: '2026-03-02T00:00:00Z', updated: '2026-03-02T00:00:00Z', deleted_at: null })
        .execute()
    await subscribe([{ resource: 'transactions', apiVersion: 2 }])
    await subscribe([{ resource: 'counterparties', apiVersion: 2 }])
    await subscribe([{ resource: 'transactions', apiVersion: 2, events: ['UPDATED'] }])
    const response = await postStatement(t, camtFixture('camt053-001-02-two-accounts.xml', { operating: operating.iban, payroll: payroll.iban }), { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    const deliveries = await t.db.database.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('organization_id', '=', organization.organizationId)
      .where('resource', '=', 'transactions')
      .execute()
    expect(deliveries).toHaveLength(8)
    const payload = JSON.parse(deliveries[0]!.payload) as { resource: string; event: Record<string, unknown>; entity: { id: string } }
    expect(payload).toMatchObject({ resource: 'transactions', apiVersion: 2, event: { id: 1, type: 'CREATED', name: 'BOOKED', originator: 'BANK', entityVersion: 1 } })
    expect(payload.entity.id).toBe(deliveries[0]!.entity_id)
  })

  it('creates nothing new when the same file is imported again, and says so', async () => {
    const before = await writtenRows(t)
    const response = await postStatement(t, xml)
    expect(response.statusCode).toBe(201)
    expect(response.json()).toMatchObject({
      statementsFound: 2,
      transactionsBooked: 0,
      transactionsAlreadyPresent: 8,
      statements: [
        { statementId: '20260302-OPERATING-0042', transactionsBooked: 0, transactionsAlreadyPresent: 6 },
        { statementId: '20260302-PAYROLL-0017', transactionsBooked: 0, transactionsAlreadyPresent: 2 },
      ],
    })
    expect(await writtenRows(t)).toEqual(before)
  })
})

describe('camt.053.001.08: Swedish bank flavour', () => {
  let xml: string

  beforeAll(async () => {
    xml = camtFixture('camt053-001-08-nordic.xml', { nordic: accounts.nordic.iban })
    const response = await postStatement(t, xml, { contentType: 'text/xml; charset=utf-8' })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({
      messageType: 'camt.053.001.08',
      statements: [{ statementId: 'SE-20260302-000061', entriesFound: 6, entriesNotBooked: 1, transactionsBooked: 6 }],
    })
  })

  it('books the entries with Sts/Cd, Dbtr/Pty, per-transaction amounts and a booking date-time', async () => {
    const transactions = await listTransactions(t, accounts.nordic.id)
    expect(transactions).toHaveLength(6)
    expect(byReference(transactions, 'SE0302000091')).toMatchObject({
      amount: { currency: 'SEK', value: 1250000 },
      reference: '4902030012345',
      description: 'BG INBETALNING',
      counterparty: { name: 'Fjällbacka Konsult AB', account: { identifiers: [], rawIdentifier: '5402-9681' } },
      bankTransactionCode: { domain: 'PMNT', family: 'RCDT', subfamily: 'DMCT', proprietary: { code: 'BGINBETALNING', issuer: 'BGC' } },
    })
    const card = transactions.filter((transaction) => transaction.references.entryReference.startsWith('NtryRef/2/'))
    expect(card.map((transaction) => [transaction.amount.value, transaction.date, transaction.valueDate, transaction.references.endToEndId]).sort()).toEqual([
      [274550, '2026-03-02', '2026-03-03', 'MC-20260301-88122'],
      [600000, '2026-03-02', '2026-03-03', 'VISA-20260301-88121'],
    ])
  })

  it('books a returned payment as returned, with its reason and the original creditor', async () => {
    const transactions = await listTransactions(t, accounts.nordic.id)
    expect(byReference(transactions, 'SE0302000093')).toMatchObject({
      amount: { value: 320000 },
      returned: true,
      returnReason: { code: 'AC04', description: 'Account closed' },
      references: { endToEndId: 'PAY-2026-0211' },
      counterparty: { name: 'Gamla Leverantören AB', account: { identifiers: [{ number: 'SE4550000000058398257466' }], bic: 'ESSESESSXXX' } },
    })
  })

  it('keeps two identical fees without references as two transactions', async () => {
    const fees = (await listTransactions(t, accounts.nordic.id)).filter((transaction) => transaction.references.entryReference.startsWith('sha256/'))
    expect(fees.map((fee) => fee.amount.value)).toEqual([-15000, -15000])
    expect(fees.map((fee) => fee.references.entryReference.split('/')[2]).sort()).toEqual(['1', '2'])
  })

  it('records the interim balance of a date-time', async () => {
    const balances = await listBalances(t, accounts.nordic.id)
    expect(balances).toContainEqual(expect.objectContaining({ type: 'BOOKED', reportedType: 'INTERIM', localDate: '2026-03-02', amount: expect.objectContaining({ value: 26250000 }) }))
  })

  it('recognizes every entry again on a second import, hashed references included', async () => {
    const before = await writtenRows(t)
    const response = await postStatement(t, xml)
    expect(response.json()).toMatchObject({ transactionsBooked: 0, transactionsAlreadyPresent: 6 })
    expect(await writtenRows(t)).toEqual(before)
  })

  it('finds the entries of an intraday camt.052 report of the same day already booked', async () => {
    const report = xml
      .replaceAll('camt.053.001.08', 'camt.052.001.08')
      .replaceAll('BkToCstmrStmt>', 'BkToCstmrAcctRpt>')
      .replace('<Stmt>', '<Rpt>')
      .replace('</Stmt>', '</Rpt>')
    const response = await postStatement(t, report)
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({
      messageType: 'camt.052.001.08',
      statements: [{ statementId: 'SE-20260302-000061', transactionsBooked: 0, transactionsAlreadyPresent: 6 }],
    })
  })

  it('books the next day’s statement, whose NtryRef numbering starts over, as new entries', async () => {
    const nextDay = xml
      .replaceAll('2026-03-02', '2026-03-03')
      .replaceAll('SE03020000', 'SE03030000')
      .replace('SE-20260302-000061', 'SE-20260303-000062')
      // Opening is the previous closing balance; the same entries again make a closing of 298291.00.
      .replaceAll('<Amt Ccy="SEK">274145.50</Amt>', '<Amt Ccy="SEK">298291.00</Amt>')
      .replace('<Amt Ccy="SEK">250000.00</Amt>', '<Amt Ccy="SEK">274145.50</Amt>')
    const response = await postStatement(t, nextDay)
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({ transactionsBooked: 6, transactionsAlreadyPresent: 0 })
    expect(await listTransactions(t, accounts.nordic.id)).toHaveLength(12)
  })
})

describe('a generated statement of 2,500 entries', () => {
  it('books every entry across insert batches, splits its batches, and finds them all again', async () => {
    const organization = await t.newOrganization('Generated statements')
    const { operating } = await sandboxAccounts(t, organization)
    const xml = generateCamt053({ iban: operating.iban, entries: 2500, version: '001.02', opening: 5_000_000 })
    const first = await postStatement(t, xml, { as: organization })
    expect(first.statusCode, first.body).toBe(201)
    // 50 of the entries are batches of three payments with their own amounts.
    expect(first.json()).toMatchObject({ transactionsBooked: 2600, transactionsAlreadyPresent: 0 })
    const db = t.db.database.db
    const total = await db
      .selectFrom('transactions')
      .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('amount').as('sum')])
      .where('account_id', '=', operating.id)
      .where('date', '=', '2026-03-02')
      .executeTakeFirstOrThrow()
    const balances = await listBalances(t, operating.id, organization)
    const open = balances.find((balance) => balance.reportedType === 'OPEN')!.amount.value
    const close = balances.find((balance) => balance.reportedType === 'CLOSE')!.amount.value
    expect(Number(total.count)).toBe(2600)
    expect(open + Number(total.sum)).toBe(close)
    const again = await postStatement(t, xml, { as: organization })
    expect(again.json()).toMatchObject({ transactionsBooked: 0, transactionsAlreadyPresent: 2600 })
  })
})
