import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { IBANS } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { camtFixture, postStatement, sandboxAccounts, writtenRows, type SandboxAccount } from './statements-helpers.js'

let t: TestApp
let accounts: Record<'operating' | 'payroll' | 'nordic', SandboxAccount>
let twoAccounts: string
let nordic: string
let othersNordicIban: string

beforeAll(async () => {
  t = await startTestApp()
  accounts = await sandboxAccounts(t)
  // Created up front: a new sandbox organization comes with the sandbox bank's seeded history.
  othersNordicIban = (await sandboxAccounts(t, await t.newOrganization('Someone else'))).nordic.iban
  twoAccounts = camtFixture('camt053-001-02-two-accounts.xml', { operating: accounts.operating.iban, payroll: accounts.payroll.iban })
  nordic = camtFixture('camt053-001-08-nordic.xml', { nordic: accounts.nordic.iban })
})
afterAll(() => t.close())

// Nothing of a rejected file is written: no transaction, balance or event, in any statement of it.
let before: Awaited<ReturnType<typeof writtenRows>>
beforeEach(async () => {
  before = await writtenRows(t)
})
afterEach(async () => {
  expect(await writtenRows(t)).toEqual(before)
})

interface ErrorBody {
  status: number
  code: string
  message: string
  details?: Array<{ code: string; field: string; error: string }>
}

async function rejected(xml: string, contentType?: string): Promise<ErrorBody> {
  const response = await postStatement(t, xml, contentType ? { contentType } : {})
  expect(response.statusCode, response.body).toBe(400)
  return response.json() as ErrorBody
}

describe('statements that do not add up', () => {
  it('rejects a closing balance that is not opening + booked entries, naming the statement and both figures', async () => {
    const body = await rejected(twoAccounts.replace('<Amt Ccy="EUR">12726.85</Amt>', '<Amt Ccy="EUR">12726.86</Amt>'))
    expect(body.code).toBe('invalid_request')
    expect(body.details).toHaveLength(1)
    const [detail] = body.details!
    expect(detail).toMatchObject({ code: 'balance_mismatch', field: 'Stmt[1].Bal[2]' })
    expect(detail!.error).toContain('20260302-OPERATING-0042')
    expect(detail!.error).toContain('= 12726.85 EUR')
    expect(detail!.error).toContain('closing balance (CLBD) is 12726.86')
    expect(detail!.error).toMatch(/\(line \d+\)$/)
    expect(body.message).toContain('Stmt[1].Bal[2]')
  })

  it('counts a PRCD opening balance too', async () => {
    const body = await rejected(twoAccounts.replace('<Amt Ccy="EUR">48000.00</Amt>', '<Amt Ccy="EUR">48000.01</Amt>'))
    expect(body.details).toEqual([expect.objectContaining({ code: 'balance_mismatch', field: 'Stmt[2].Bal[2]' })])
    expect(body.details![0]!.error).toContain('20260302-PAYROLL-0017')
  })
})

describe('accounts', () => {
  it('rejects a statement of an IBAN the organization has no account for, naming it and the statement', async () => {
    const body = await rejected(twoAccounts.replaceAll(accounts.payroll.iban, IBANS.nl))
    expect(body.details).toEqual([expect.objectContaining({ code: 'unknown_account', field: 'Stmt[2].Acct.Id.IBAN' })])
    expect(body.details![0]!.error).toContain(IBANS.nl)
    expect(body.details![0]!.error).toContain('20260302-PAYROLL-0017')
  })

  it("does not import into another organization's account", async () => {
    const body = await rejected(camtFixture('camt053-001-08-nordic.xml', { nordic: othersNordicIban }))
    expect(body.details).toEqual([expect.objectContaining({ code: 'unknown_account', field: 'Stmt[1].Acct.Id.IBAN' })])
  })

  it('rejects a statement in another currency than its account', async () => {
    const body = await rejected(camtFixture('camt053-001-08-nordic.xml', { nordic: accounts.operating.iban }))
    expect(body.details).toEqual([expect.objectContaining({ code: 'currency_mismatch', field: 'Stmt[1].Acct.Ccy' })])
    expect(body.details![0]!.error).toContain('SEK')
    expect(body.details![0]!.error).toContain('EUR')
  })

  it('rejects an entry amount in another currency', async () => {
    const body = await rejected(twoAccounts.replace('<Amt Ccy="EUR">389.90</Amt>', '<Amt Ccy="USD">389.90</Amt>'))
    expect(body.details).toContainEqual(expect.objectContaining({ code: 'currency_mismatch', field: 'Stmt[1].Ntry[3].Amt' }))
  })
})

describe('entries', () => {
  it('rejects a CdtDbtInd that is neither CRDT nor DBIT', async () => {
    const body = await rejected(twoAccounts.replace('<CdtDbtInd>DBIT</CdtDbtInd>\n        <Sts>BOOK</Sts>', '<CdtDbtInd>DEBIT</CdtDbtInd>\n        <Sts>BOOK</Sts>'))
    expect(body.details).toEqual([expect.objectContaining({ code: 'invalid_value', field: 'Stmt[1].Ntry[2].CdtDbtInd' })])
    expect(body.details![0]!.error).toContain("'DEBIT'")
  })

  it('rejects an amount with more decimals than the currency has', async () => {
    const body = await rejected(twoAccounts.replace('<Amt Ccy="EUR">12.50</Amt>', '<Amt Ccy="EUR">12.505</Amt>'))
    expect(body.details).toContainEqual(expect.objectContaining({ code: 'invalid_value', field: 'Stmt[1].Ntry[4].Amt' }))
  })

  it('rejects a booking date that is no date', async () => {
    const body = await rejected(twoAccounts.replace('<BookgDt>\n          <Dt>2026-03-02</Dt>', '<BookgDt>\n          <Dt>2026-02-30</Dt>'))
    expect(body.details).toEqual([expect.objectContaining({ code: 'invalid_value', field: 'Stmt[1].Ntry[1].BookgDt', error: expect.stringContaining("'2026-02-30' is not a date") })])
  })

  it('rejects two entries of one statement with the same reference', async () => {
    const body = await rejected(twoAccounts.replace('<AcctSvcrRef>2026030200012347</AcctSvcrRef>', '<AcctSvcrRef>2026030200012345</AcctSvcrRef>'))
    expect(body.details).toContainEqual(expect.objectContaining({ code: 'duplicate_reference', field: 'Stmt[1].Ntry[3]' }))
  })

  it('names the faults of the entries of a statement whose account is unknown before the account rule', async () => {
    const body = await rejected(
      twoAccounts.replaceAll(accounts.payroll.iban, IBANS.nl).replace('<Amt Ccy="EUR">5000.00</Amt>\n        <CdtDbtInd>CRDT</CdtDbtInd>', '<Amt Ccy="EUR">5000.00</Amt>'),
    )
    expect(body.details!.map((detail) => [detail.code, detail.field])).toEqual([
      ['invalid_value', 'Stmt[2].Ntry[2].CdtDbtInd'],
      ['unknown_account', 'Stmt[2].Acct.Id.IBAN'],
    ])
    expect(body.message).toContain('Stmt[2].Ntry[2].CdtDbtInd: is required (CRDT or DBIT)')
  })

  it('reports every problem of the file at once', async () => {
    const body = await rejected(
      twoAccounts
        .replace('<Amt Ccy="EUR">12.50</Amt>', '<Amt Ccy="EUR">12.505</Amt>')
        .replaceAll(accounts.payroll.iban, IBANS.nl)
        .replace('<Sts>BOOK</Sts>', '<Sts>DONE</Sts>'),
    )
    expect(body.details!.map((detail) => detail.field)).toEqual(['Stmt[1].Ntry[1].Sts', 'Stmt[1].Ntry[4].Amt', 'Stmt[2].Acct.Id.IBAN'])
    expect(body.message).toContain('and 2 more problems')
  })
})

describe('files that are no statement', () => {
  it('rejects malformed XML with its line and column', async () => {
    const broken = twoAccounts.replace('</AddtlNtryInf>\n      </Ntry>', '</AddtlNtryInf>\n      </Entry>')
    const body = await rejected(broken)
    expect(body.message).toMatch(/not well-formed XML.*line \d+, column \d+/)
    expect(body.details).toEqual([expect.objectContaining({ code: 'malformed_xml', field: expect.stringMatching(/^line \d+, column \d+$/) })])
  })

  it('rejects a truncated file', async () => {
    const body = await rejected(twoAccounts.slice(0, twoAccounts.length / 2))
    expect(body.details![0]!.code).toBe('malformed_xml')
  })

  it('rejects an empty body', async () => {
    const body = await rejected('')
    expect(body.details![0]!.code).toBe('malformed_xml')
  })

  it('rejects a payment initiation (pain.001), naming the message', async () => {
    const pain = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:pain.001.001.03">
  <CstmrCdtTrfInitn>
    <GrpHdr><MsgId>PAIN-1</MsgId><CreDtTm>2026-03-02T10:00:00</CreDtTm><NbOfTxs>1</NbOfTxs><InitgPty><Nm>Kassa Test GmbH</Nm></InitgPty></GrpHdr>
  </CstmrCdtTrfInitn>
</Document>`
    const body = await rejected(pain)
    expect(body.details).toEqual([expect.objectContaining({ code: 'unsupported_message', field: 'Document' })])
    expect(body.message).toContain('pain.001.001.03')
    expect(body.message).toContain('CstmrCdtTrfInitn')
  })

  it('rejects a camt.053 version it does not know', async () => {
    const body = await rejected(twoAccounts.replace('camt.053.001.02"', 'camt.053.001.13"'))
    expect(body.message).toContain('camt.053.001.13')
  })

  it('rejects XML whose root is no ISO 20022 Document', async () => {
    const body = await rejected('<?xml version="1.0"?><Statement><Line>1</Line></Statement>')
    expect(body.details).toEqual([expect.objectContaining({ code: 'unsupported_message', field: 'Statement' })])
  })

  it('answers 415 to a body that is not XML, and 403 to a key without statements:create', async () => {
    for (const contentType of ['application/json', 'text/plain', 'application/octet-stream']) {
      const response = await postStatement(t, contentType === 'application/json' ? '{"xml":"…"}' : twoAccounts, { contentType })
      expect(response.statusCode).toBe(415)
      expect(response.json()).toMatchObject({ code: 'unsupported_media_type' })
      expect(response.json().message).toContain('application/xml')
    }
    const readOnly = await t.newKey('read-only')
    const forbidden = await postStatement(t, twoAccounts, { as: readOnly })
    expect(forbidden.statusCode).toBe(403)
  })
})

it('other routes still take JSON only', async () => {
  const response = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: nordic, headers: { 'content-type': 'application/xml' } })
  expect(response.statusCode).toBe(415)
})
