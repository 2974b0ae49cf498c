import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { byReference, camtFixture, listBalances, listTransactions, postStatement, registerAccount, writtenRows } from './statements-helpers.js'

/**
 * Issue 12: statements as real banks send them — Swiss, Nordic and German — imported into accounts
 * registered at those banks (POST /financial-data/v2/accounts), each organization a fresh one.
 */

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ webhooks: { startWorker: false } })
})
afterAll(() => t.close())

const SWISS_NUMBER = '85-123456-7'
const GERMAN_IBAN = 'DE02120300000000202051'

interface ImportBody {
  statements: Array<Record<string, unknown>>
  warnings: Array<{ code: string; statementId: string; accountId: string; field: string; message: string }>
  transactionsBooked: number
  transactionsAlreadyPresent: number
}

describe('a Swiss postal account: named by Othr/Id, dates with a time zone, entries without a booking date', () => {
  let organization: Credentials
  let accountId: string
  let imported: ImportBody

  beforeAll(async () => {
    organization = await t.newOrganization('Swiss customer')
    accountId = await registerAccount(t, organization, { market: 'CH', currency: 'CHF', identifiers: [{ type: 'NUMBER', number: SWISS_NUMBER }] })
    const response = await postStatement(t, camtFixture('camt053-001-04-swiss-postal-account.xml', {}), { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    imported = response.json()
  })

  it('matches the statement to the account registered with its domestic number', () => {
    expect(imported.statements).toEqual([
      expect.objectContaining({ statementId: 'PF-85-123456-7-20260330', accountId, otherAccountId: SWISS_NUMBER, currency: 'CHF', entriesFound: 4, transactionsBooked: 4 }),
    ])
    expect(imported.statements[0]).not.toHaveProperty('iban')
  })

  it('takes a date with a time-zone offset as the local date written, and the date of a date-time with offset and fractions', async () => {
    const transactions = await listTransactions(t, accountId, organization)
    expect(byReference(transactions, '260330CH0A1B2C3D')).toMatchObject({
      date: '2026-03-30',
      valueDate: '2026-03-30',
      amount: { currency: 'CHF', value: 125000 },
      reference: '210000000003139471430009017',
      counterparty: { name: 'Bergbahnen Beispiel AG' },
    })
    expect(byReference(transactions, '260330CH0A1B2C3E')).toMatchObject({ date: '2026-03-30', valueDate: '2026-03-28', amount: { value: -8640 } })
    const balances = await listBalances(t, accountId, organization)
    expect(balances.map(({ reportedType, amount, localDate }) => [reportedType, amount.value, localDate]).sort()).toEqual([
      ['CLOSE', 1070160, '2026-03-30'],
      ['OPEN', 1000000, '2026-03-30'],
    ])
  })

  it("books an entry without BookgDt on its value date, one without either on the statement's date, and says so", async () => {
    const transactions = await listTransactions(t, accountId, organization)
    const fee = byReference(transactions, '260330CH0A1B2C3F')
    expect(fee).toMatchObject({ date: '2026-03-31', valueDate: '2026-03-31', dateSource: 'VALUE_DATE', amount: { value: -1200 } })
    const standingOrder = byReference(transactions, '260330CH0A1B2C40')
    expect(standingOrder).toMatchObject({ date: '2026-03-30', valueDate: '2026-03-30', dateSource: 'STATEMENT_DATE', references: { endToEndId: 'DAUERAUFTRAG-0004' } })
    expect(byReference(transactions, '260330CH0A1B2C3D').dateSource).toBeUndefined()
    const single = await t.request({ method: 'GET', url: `/financial-data/v2/transactions/${fee.id}`, as: organization })
    expect(single.json()).toMatchObject({ dateSource: 'VALUE_DATE' })

    expect(imported.warnings).toEqual([
      {
        code: 'booking_date_taken',
        statementId: 'PF-85-123456-7-20260330',
        accountId,
        field: 'Stmt[1]',
        message: expect.stringContaining("2 transactions whose entry has no booking date (BookgDt), on another date as its dateSource says: 260330CH0A1B2C3F on its value date 2026-03-31, 260330CH0A1B2C40 on the statement's date 2026-03-30"),
      },
    ])
  })

  it('books nothing and warns of nothing when the same statement comes again', async () => {
    const again = await postStatement(t, camtFixture('camt053-001-04-swiss-postal-account.xml', {}), { as: organization })
    expect(again.json()).toMatchObject({ transactionsBooked: 0, transactionsAlreadyPresent: 4, warnings: [] })
  })

  it('registers each account number once per organization, however it is written', async () => {
    const clash = await t.request({
      method: 'POST',
      url: '/financial-data/v2/accounts',
      as: organization,
      body: { name: 'Second', market: 'CH', currency: 'CHF', bank: { name: 'PostFinance' }, identifiers: [{ market: 'CH', type: 'NUMBER', number: '85 123456 7' }] },
    })
    expect(clash.statusCode).toBe(409)
    expect(clash.json().message).toContain(`The account ${accountId} already has the account number 851234567`)
  })
})

describe('a Norwegian account named by its BBAN', () => {
  it('is matched to the account registered with the number as people write it, its dates in UTC or with an offset', async () => {
    const organization = await t.newOrganization('Norwegian customer')
    const accountId = await registerAccount(t, organization, { market: 'NO', currency: 'NOK', identifiers: [{ type: 'NUMBER', number: '1503.12.34567' }] })
    const response = await postStatement(t, camtFixture('camt053-001-02-norway-bban.xml', {}), { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({ statements: [{ accountId, otherAccountId: '15031234567', transactionsBooked: 3 }], warnings: [] })
    const transactions = await listTransactions(t, accountId, organization)
    expect(transactions.map((transaction) => [transaction.references.entryReference, transaction.date, transaction.valueDate, transaction.amount.value]).sort()).toEqual([
      ['NO0302000118', '2026-03-02', '2026-03-02', 1875000],
      ['NO0302000119', '2026-03-02', '2026-03-02', -789000],
      ['NO0302000120', '2026-03-02', '2026-03-02', -10000],
    ])
    expect(byReference(transactions, 'NO0302000118')).toMatchObject({ reference: '2026030200012', counterparty: { name: 'Fjordkraft Eksempel AS', account: { rawIdentifier: '12034567890' } } })
  })
})

describe('a German statement converted from MT940, its elements in the MT940 order', () => {
  it('is imported for its meaning: balances whose elements come in another order, closing balances after the entries', async () => {
    const organization = await t.newOrganization('German customer')
    const accountId = await registerAccount(t, organization, { market: 'DE', currency: 'EUR', identifiers: [{ type: 'IBAN', number: GERMAN_IBAN }] })
    const response = await postStatement(t, camtFixture('camt053-001-08-german-mt940-order.xml', {}), { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    expect(response.json()).toMatchObject({
      statements: [
        {
          accountId,
          iban: GERMAN_IBAN,
          electronicSequenceNumber: '49',
          transactionsBooked: 2,
          balances: [
            { code: 'PRCD', type: 'BOOKED', reportedType: 'CLOSE', amount: { value: 532075 }, localDate: '2026-03-02' },
            { code: 'CLBD', type: 'BOOKED', reportedType: 'CLOSE', amount: { value: 704326 }, localDate: '2026-03-03' },
            { code: 'CLAV', type: 'AVAILABLE', reportedType: 'CLOSE', amount: { value: 704326 }, localDate: '2026-03-03' },
          ],
        },
      ],
    })
    const transactions = await listTransactions(t, accountId, organization)
    expect(byReference(transactions, '2026030300912002')).toMatchObject({ date: '2026-03-03', amount: { value: -6249 }, references: { mandateReference: 'M-55812-2019' } })
  })
})

describe('a file with several faults', () => {
  it('names the faults of its entries, with their paths, before the account rule that would hide them', async () => {
    const organization = await t.newOrganization('Not yet registered')
    const faulty = camtFixture('camt053-001-04-swiss-postal-account.xml', {})
      .replace('<Amt Ccy="CHF">86.40</Amt>\n        <CdtDbtInd>DBIT</CdtDbtInd>', '<Amt Ccy="CHF">86.40</Amt>')
      .replace('<Amt Ccy="CHF">12.00</Amt>', '<Amt Ccy="EUR">12.00</Amt>')
    const before = await writtenRows(t)
    const response = await postStatement(t, faulty, { as: organization })
    expect(response.statusCode).toBe(400)
    const body = response.json() as { message: string; details: Array<{ code: string; field: string; error: string }> }
    expect(body.details.map(({ code, field }) => [code, field])).toEqual([
      ['invalid_value', 'Stmt[1].Ntry[2].CdtDbtInd'],
      ['currency_mismatch', 'Stmt[1].Ntry[3].Amt'],
      ['unknown_account', 'Stmt[1].Acct.Id.Othr.Id'],
    ])
    expect(body.details[1]!.error).toMatch(/^is in EUR, but statement PF-85-123456-7-20260330 is in CHF \(line \d+\)$/)
    expect(body.details[2]!.error).toContain(`no account with account number ${SWISS_NUMBER}`)
    expect(body.message).toMatch(/^The statement file was rejected: Stmt\[1\]\.Ntry\[2\]\.CdtDbtInd: is required/)
    expect(await writtenRows(t)).toEqual(before)
  })
})

describe('a statement older than the account’s known history', () => {
  let organization: Credentials
  let accountId: string
  const statementOf = (bookingDate: string, referencePrefix: string) =>
    generateCamt053({ iban: GERMAN_IBAN, entries: 4, bookingDate, referencePrefix, statementId: `${referencePrefix}-${bookingDate}` })
  const post = async (xml: string) => {
    const response = await postStatement(t, xml, { as: organization })
    expect(response.statusCode, response.body).toBe(201)
    return response.json() as ImportBody
  }

  beforeAll(async () => {
    organization = await t.newOrganization('Statements out of order')
    accountId = await registerAccount(t, organization, { market: 'DE', currency: 'EUR', identifiers: [{ type: 'IBAN', number: GERMAN_IBAN }] })
  })

  it('books statements in order without a warning', async () => {
    expect((await post(statementOf('2026-03-03', 'MAR03'))).warnings).toEqual([])
    expect((await post(statementOf('2026-03-04', 'MAR04'))).warnings).toEqual([])
  })

  it('books an older one, and warns that it comes before the account’s earliest transaction and the last statement’s period', async () => {
    const older = await post(statementOf('2026-03-02', 'MAR02'))
    expect(older.transactionsBooked).toBe(4)
    const place = { statementId: 'MAR02-2026-03-02', accountId, field: 'Stmt[1]' }
    expect(older.warnings).toEqual([
      { code: 'before_account_history', ...place, message: 'Statement MAR02-2026-03-02 booked 4 transactions dated 2026-03-02, before the earliest transaction the account had (2026-03-03)' },
      {
        code: 'before_last_statement',
        ...place,
        message: 'Statement MAR02-2026-03-02 booked 4 transactions dated 2026-03-02, before the period of statement MAR04-2026-03-04 (2026-03-04) imported earlier: statements were imported out of order',
      },
    ])
    expect((await listTransactions(t, accountId, organization)).filter((transaction) => transaction.date === '2026-03-02')).toHaveLength(4)
  })

  it('warns of nothing when a statement books nothing new', async () => {
    const again = await post(statementOf('2026-03-02', 'MAR02'))
    expect(again).toMatchObject({ transactionsBooked: 0, transactionsAlreadyPresent: 4, warnings: [] })
  })
})
