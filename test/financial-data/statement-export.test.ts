import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { attachTransactable } from '../../src/financial-data/transactions/transaction-reconciliation.js'
import type { Credentials } from '../../src/iam/index.js'
import { xsdErrors } from '../connectivity/bank-files/xsd-validator.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { listBalances, listTransactions, postStatement, registerAccount, type ListedTransaction } from './statements-helpers.js'

/**
 * Issue 12, "Statements as ERPs read them": GET /financial-data/v2/accounts/{id}/statement as camt.053.001.08,
 * valid against the XSD, agreeing with GET …/balances, and read back by Kassa's own importer in another
 * organization as an ERP would read it.
 */

let t: TestApp
beforeAll(async () => {
  t = await startTestApp({ webhooks: { startWorker: false } })
})
afterAll(() => t.close())

const IBAN = 'DE89370400440532013000'
const PAYER = 'Müller & Söhne <Zürich> GmbH'
const PAYEE = 'Café "Zoë" > Ltd & Co'

interface InputEntry {
  reference: string
  /** Signed minor units. */
  amount: number
  date: string
  valueDate?: string
  counterparty?: { name: string; iban: string }
  endToEndId?: string
  remittance?: string
  code?: string
}

const escape = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;')

/** A camt.053.001.08 statement of one day, as a bank would send it, to book the entries given. */
function bankStatement(options: { accountId: string; currency: string; exponent: number; day: string; opening: number; entries: InputEntry[]; id: string }): string {
  const decimal = (minor: number) => {
    const digits = Math.abs(minor).toString().padStart(options.exponent + 1, '0')
    return options.exponent === 0 ? digits : `${digits.slice(0, -options.exponent)}.${digits.slice(-options.exponent)}`
  }
  const amount = (minor: number) => `<Amt Ccy="${options.currency}">${decimal(minor)}</Amt><CdtDbtInd>${minor < 0 ? 'DBIT' : 'CRDT'}</CdtDbtInd>`
  const balance = (code: string, minor: number) => `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp>${amount(minor)}<Dt><Dt>${options.day}</Dt></Dt></Bal>`
  const closing = options.entries.reduce((sum, entry) => sum + entry.amount, options.opening)
  const entry = (item: InputEntry) => {
    const role = item.amount < 0 ? 'Cdtr' : 'Dbtr'
    const parties = item.counterparty
      ? `<RltdPties><${role}><Pty><Nm>${escape(item.counterparty.name)}</Nm></Pty></${role}><${role}Acct><Id><IBAN>${item.counterparty.iban}</IBAN></Id></${role}Acct></RltdPties>`
      : ''
    const refs = item.endToEndId ? `<Refs><EndToEndId>${item.endToEndId}</EndToEndId></Refs>` : ''
    const remittance = item.remittance ? `<RmtInf><Ustrd>${escape(item.remittance)}</Ustrd></RmtInf>` : ''
    const code = item.code ? `<Domn><Cd>PMNT</Cd><Fmly><Cd>${item.code}</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn>` : '<Prtry><Cd>FEE</Cd></Prtry>'
    return (
      `<Ntry>${amount(item.amount)}<Sts><Cd>BOOK</Cd></Sts><BookgDt><Dt>${item.date}</Dt></BookgDt><ValDt><Dt>${item.valueDate ?? item.date}</Dt></ValDt>` +
      `<AcctSvcrRef>${item.reference}</AcctSvcrRef><BkTxCd>${code}</BkTxCd><NtryDtls><TxDtls>${refs}${parties}${remittance}</TxDtls></NtryDtls></Ntry>`
    )
  }
  return (
    `<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>` +
    `<GrpHdr><MsgId>${options.id}</MsgId><CreDtTm>${options.day}T20:00:00Z</CreDtTm></GrpHdr><Stmt><Id>${options.id}</Id><CreDtTm>${options.day}T20:00:00Z</CreDtTm>` +
    `<Acct><Id>${options.accountId}</Id><Ccy>${options.currency}</Ccy></Acct>${balance('OPBD', options.opening)}${balance('CLBD', closing)}` +
    `${options.entries.map(entry).join('')}</Stmt></BkToCstmrStmt></Document>`
  )
}

function getStatement(accountId: string, query: string, as: Credentials) {
  return t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}/statement?${query}`, as })
}

/** The texts of the elements named `name` directly holding text, in document order. */
function texts(xml: string, name: string): string[] {
  return [...xml.matchAll(new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`, 'g'))].map((match) => match[1]!)
}

/** The document without the indentation between elements, to assert on nesting. */
function squeezed(xml: string): string {
  return xml.replace(/>\s+</g, '><')
}

/** What an ERP keeps of a booked transaction. */
function essentials(transaction: ListedTransaction) {
  return {
    amount: transaction.amount,
    date: transaction.date,
    valueDate: transaction.valueDate,
    entryReference: transaction.references.entryReference,
    endToEndId: transaction.references.endToEndId,
    reference: transaction.reference,
    counterparty: transaction.counterparty?.name,
    counterpartyAccount: transaction.counterparty?.account?.identifiers.map((identifier) => identifier.number),
    bankTransactionCode: transaction.bankTransactionCode,
  }
}

describe('a EUR account with entries of both signs on two days', () => {
  let organization: Credentials
  let accountId: string
  let statement: string

  beforeAll(async () => {
    organization = await t.newOrganization('Exporter')
    accountId = await registerAccount(t, organization, { market: 'DE', currency: 'EUR', identifiers: [{ type: 'IBAN', number: IBAN }] })
    const ibanXml = `<IBAN>${IBAN}</IBAN>`
    const first = bankStatement({
      id: 'IN-0302',
      accountId: ibanXml,
      currency: 'EUR',
      exponent: 2,
      day: '2026-03-02',
      opening: 100_000,
      entries: [
        { reference: 'BANKREF-1', amount: 25_000, date: '2026-03-02', valueDate: '2026-03-01', counterparty: { name: PAYER, iban: 'FR7630006000011234567890189' }, endToEndId: 'E2E-INVOICE-17', remittance: 'Invoice 17 & 18 <paid>', code: 'RCDT' },
        { reference: 'BANKREF-2', amount: -8_015, date: '2026-03-02', counterparty: { name: PAYEE, iban: 'NL91ABNA0417164300' }, remittance: 'Déjeuner équipe', code: 'ICDT' },
      ],
    })
    const second = bankStatement({
      id: 'IN-0304',
      accountId: ibanXml,
      currency: 'EUR',
      exponent: 2,
      day: '2026-03-04',
      opening: 116_985,
      entries: [{ reference: 'BANKREF-3', amount: -250, date: '2026-03-04' }],
    })
    for (const xml of [first, second]) {
      const response = await postStatement(t, xml, { as: organization })
      expect(response.statusCode, response.body).toBe(201)
    }
    const response = await getStatement(accountId, 'from=2026-03-02&to=2026-03-04', organization)
    expect(response.statusCode, response.body).toBe(200)
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8')
    statement = response.body
  })

  it('is valid against the camt.053.001.08 schema, the empty period too', async () => {
    const empty = await getStatement(accountId, 'from=2026-03-03&to=2026-03-03', organization)
    expect(empty.statusCode).toBe(200)
    expect(await xsdErrors([{ version: 'camt.053.001.08', xml: statement }, { version: 'camt.053.001.08', xml: empty.body }])).toEqual([[], []])
  })

  it('names the account by IBAN with its currency, owner and the period', () => {
    expect(texts(statement, 'IBAN')[0]).toBe(IBAN)
    expect(texts(statement, 'Ccy')).toEqual(['EUR'])
    expect(squeezed(statement)).toContain('<Ownr><Nm>Exporter</Nm>')
    expect(texts(statement, 'FrDtTm')).toEqual(['2026-03-02T00:00:00'])
    expect(texts(statement, 'ToDtTm')).toEqual(['2026-03-04T23:59:59'])
  })

  it('opens with the balance at the end of the day before and closes with GET …/balances of the last day', async () => {
    const balances = await listBalances(t, accountId, organization)
    const close0304 = balances.find((balance) => balance.reportedType === 'CLOSE' && balance.localDate === '2026-03-04')!
    expect(close0304.amount.stringValue).toBe('1167.35')
    const balanceTexts = [...statement.matchAll(/<Cd>(OPBD|CLBD)<\/Cd>[\s\S]*?<Amt Ccy="EUR">([^<]*)<\/Amt>\s*<CdtDbtInd>(\w+)<[\s\S]*?<Dt>([\d-]+)<\/Dt>/g)].map((m) => m.slice(1))
    expect(balanceTexts).toEqual([
      ['OPBD', '1000.00', 'CRDT', '2026-03-02'],
      ['CLBD', close0304.amount.stringValue, 'CRDT', '2026-03-04'],
    ])
  })

  it('has every booked entry with amounts, signs, dates, references, codes, parties and remittance, escaped', () => {
    expect(texts(statement, 'AcctSvcrRef')).toEqual(['BANKREF-1', 'BANKREF-2', 'BANKREF-3'])
    expect(texts(statement, 'Amt').slice(2)).toEqual(['250.00', '80.15', '2.50'])
    expect(texts(statement, 'CdtDbtInd').slice(2)).toEqual(['CRDT', 'DBIT', 'DBIT'])
    expect(texts(statement, 'Cd').filter((code) => code === 'BOOK')).toHaveLength(3)
    expect(texts(statement, 'EndToEndId')).toEqual(['E2E-INVOICE-17'])
    expect(texts(statement, 'SubFmlyCd')).toEqual(['ESCT', 'ESCT'])
    expect(squeezed(statement)).toContain('<Prtry><Cd>FEE</Cd>')
    expect(squeezed(statement)).toContain('<Dbtr><Pty><Nm>Müller &amp; Söhne &lt;Zürich&gt; GmbH</Nm>')
    expect(statement).toContain('<Nm>Café &quot;Zoë&quot; &gt; Ltd &amp; Co</Nm>')
    expect(texts(statement, 'Ustrd')).toEqual(['Invoice 17 &amp; 18 &lt;paid&gt;', 'Déjeuner équipe'])
  })

  it('has balances only for a period without bookings', async () => {
    const empty = (await getStatement(accountId, 'from=2026-03-03&to=2026-03-03', organization)).body
    expect(empty).not.toContain('<Ntry>')
    expect(texts(empty, 'Amt')).toEqual(['1169.85', '1169.85'])
  })

  it('derives the balances before the first reported one from the bookings (an account starts at zero)', async () => {
    const early = (await getStatement(accountId, 'from=2026-01-01&to=2026-01-31', organization)).body
    expect(texts(early, 'Amt')).toEqual(['1000.00', '1000.00'])
  })

  it('lists the end-to-end ids of the payments reconciled to an entry, one TxDtls each (a batch booking)', async () => {
    const fee = (await listTransactions(t, accountId, organization)).find((transaction) => transaction.references.entryReference === 'BANKREF-3')!
    const payments = ['0190a0a0-0000-7000-8000-0000000000a1', '0190a0a0-0000-7000-8000-0000000000a2']
    for (const id of payments) await attachTransactable(t.db.database.db, organization.organizationId, fee.id, { type: 'CREDIT_TRANSFER', id }, 'test')
    const reconciled = (await getStatement(accountId, 'from=2026-03-04&to=2026-03-04', organization)).body
    expect(texts(reconciled, 'EndToEndId')).toEqual(['0190a0a00000700080000000000000a1', '0190a0a00000700080000000000000a2'])
    expect(await xsdErrors([{ version: 'camt.053.001.08', xml: reconciled }])).toEqual([[]])
  })

  it('gives unique message ids', async () => {
    const again = (await getStatement(accountId, 'from=2026-03-02&to=2026-03-04', organization)).body
    expect(texts(again, 'MsgId')[0]).not.toBe(texts(statement, 'MsgId')[0])
  })

  it('is read back by the statement import into another organization: the same transactions and balances', async () => {
    const reader = await t.newOrganization('ERP reader')
    const readerAccount = await registerAccount(t, reader, { market: 'DE', currency: 'EUR', identifiers: [{ type: 'IBAN', number: IBAN }] })
    const response = await postStatement(t, statement, { as: reader })
    expect(response.statusCode, response.body).toBe(201)
    const exported = (await listTransactions(t, accountId, organization)).map(essentials)
    const imported = (await listTransactions(t, readerAccount, reader)).map(essentials)
    expect(imported).toHaveLength(3)
    expect(imported.sort((a, b) => a.entryReference.localeCompare(b.entryReference))).toEqual(exported.sort((a, b) => a.entryReference.localeCompare(b.entryReference)))
    const closing = (balances: Awaited<ReturnType<typeof listBalances>>) => balances.find((balance) => balance.reportedType === 'CLOSE' && balance.localDate === '2026-03-04')?.amount
    expect(closing(await listBalances(t, readerAccount, reader))).toEqual(closing(await listBalances(t, accountId, organization)))
  })
})

describe('a JPY account named by its domestic number', () => {
  it('writes amounts without decimals and the account as Othr/Id', async () => {
    const organization = await t.newOrganization('Yen holder')
    const accountId = await registerAccount(t, organization, { market: 'JP', currency: 'JPY', identifiers: [{ type: 'NUMBER', number: '0012345678' }] })
    const xml = bankStatement({
      id: 'JP-0302',
      accountId: '<Othr><Id>0012345678</Id></Othr>',
      currency: 'JPY',
      exponent: 0,
      day: '2026-03-02',
      opening: 50_000,
      entries: [
        { reference: 'JPREF-1', amount: 12_345, date: '2026-03-02', counterparty: { name: '株式会社テスト', iban: 'DE02120300000000202051' } },
        { reference: 'JPREF-2', amount: -999, date: '2026-03-02' },
      ],
    })
    expect((await postStatement(t, xml, { as: organization })).statusCode).toBe(201)
    const statement = (await getStatement(accountId, 'from=2026-03-02&to=2026-03-02', organization)).body
    expect(await xsdErrors([{ version: 'camt.053.001.08', xml: statement }])).toEqual([[]])
    expect(squeezed(statement)).toContain('<Othr><Id>0012345678</Id>')
    expect(texts(statement, 'Amt')).toEqual(['50000', '61346', '12345', '999'])
    expect(statement).toContain('<Nm>株式会社テスト</Nm>')
  })
})

describe('refusals', () => {
  let organization: Credentials
  let accountId: string
  beforeAll(async () => {
    organization = await t.newOrganization('Refused')
    accountId = await registerAccount(t, organization, { market: 'DE', currency: 'EUR', identifiers: [{ type: 'IBAN', number: 'DE02120300000000202051' }] })
  })

  it.each([
    ['from=2026-03-05&to=2026-03-04', 'to'],
    ['from=2025-01-01&to=2026-01-02', 'to'],
    ['from=2026-02-30&to=2026-03-04', 'from'],
    ['from=2026-03-01', 'to'],
    ['from=2026-03-01&to=04.03.2026', 'to'],
  ])('400 for %s, naming %s', async (query, field) => {
    const response = await getStatement(accountId, query, organization)
    expect(response.statusCode, response.body).toBe(400)
    expect((response.json() as { details: Array<{ field: string }> }).details.map((detail) => detail.field)).toContain(field)
  })

  it('takes a range of exactly 366 days', async () => {
    expect((await getStatement(accountId, 'from=2025-01-01&to=2026-01-01', organization)).statusCode).toBe(200)
  })

  it('401 without credentials; 403 without transactions:read or account_balances:read beside accounts:read', async () => {
    expect((await t.request({ method: 'GET', url: `/financial-data/v2/accounts/${accountId}/statement?from=2026-03-01&to=2026-03-02`, as: null })).statusCode).toBe(401)
    const roles: Array<[string, string[], number]> = [
      ['accounts and balances', ['accounts:read', 'account_balances:read'], 403],
      ['accounts and transactions', ['accounts:read', 'transactions:read'], 403],
      ['transactions and balances', ['transactions:read', 'account_balances:read'], 403],
      ['statement reader', ['accounts:read', 'transactions:read', 'account_balances:read'], 200],
    ]
    for (const [name, permissions, status] of roles) {
      const role = await t.request({ method: 'POST', url: '/iam/v2/roles', as: organization, body: { name, permissions } })
      expect(role.statusCode, role.body).toBe(201)
      const key = await t.newKey(name, organization.organizationId)
      expect((await getStatement(accountId, 'from=2026-03-01&to=2026-03-02', key)).statusCode, name).toBe(status)
    }
  })

  it("404 for an unknown account and for another organization's", async () => {
    expect((await getStatement('0190a0a0-0000-7000-8000-000000000000', 'from=2026-03-01&to=2026-03-02', organization)).statusCode).toBe(404)
    const other = await t.newOrganization('Outsider')
    expect((await getStatement(accountId, 'from=2026-03-01&to=2026-03-02', other)).statusCode).toBe(404)
  })
})
