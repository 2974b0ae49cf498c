import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { parseCamt } from './camt-parser.js'
import { planImport, type StatementAccount } from './statement.validation.js'

const EUR_IBAN = 'DE89370400440532013000'
const JPY_IBAN = 'GB29NWBK60161331926819'
const accounts = new Map<string, StatementAccount[]>([
  [EUR_IBAN, [{ id: 'eur-account', organization_id: 'org', currency: 'EUR' }]],
  [JPY_IBAN, [{ id: 'jpy-account', organization_id: 'org', currency: 'JPY' }]],
])

function bal(code: string, amount: string, currency = 'EUR', indicator = 'CRDT', date = '<Dt>2026-03-02</Dt>'): string {
  return `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt>${date}</Dt></Bal>`
}

function ntry(amount: string, indicator: string, inner = '', currency = 'EUR'): string {
  return `<Ntry><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt>${inner}</Ntry>`
}

function statement(content: string, iban = EUR_IBAN, id = 'S-1'): string {
  return `<Stmt><Id>${id}</Id><Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${content}</Stmt>`
}

function plan(...statements: string[]) {
  const xml = `<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId></GrpHdr>${statements.join('')}</BkToCstmrStmt></Document>`
  return planImport(parseCamt(xml), accounts)
}

function problems(...statements: string[]) {
  try {
    plan(...statements)
  } catch (error) {
    if (error instanceof ApiError) return error.details!
    throw error
  }
  throw new Error('the statement was accepted')
}

describe('entry references', () => {
  it('uses AcctSvcrRef as it is, NtryRef with a content hash, else a content hash and occurrence', () => {
    const [result] = plan(
      statement(
        [
          ntry('1.00', 'DBIT', '<AcctSvcrRef>BANK-1</AcctSvcrRef>'),
          `<Ntry><NtryRef>1</NtryRef>${ntry('2.00', 'DBIT').slice('<Ntry>'.length)}`,
          ntry('3.00', 'DBIT'),
          ntry('3.00', 'DBIT'),
        ].join(''),
      ),
    )
    const references = result!.entries.map((entry) => entry.entryReference)
    expect(references[0]).toBe('BANK-1')
    expect(references[1]).toMatch(/^NtryRef\/1\/[0-9a-f]{32}$/)
    expect(references[2]).toMatch(/^sha256\/[0-9a-f]{32}\/1$/)
    expect(references[3]).toBe(references[2]!.replace(/1$/, '2'))
  })

  it('takes placeholders such as NONREF for no reference', () => {
    const [result] = plan(statement(ntry('1.00', 'DBIT', '<AcctSvcrRef>NONREF</AcctSvcrRef>') + ntry('2.00', 'DBIT', '<AcctSvcrRef>NONREF</AcctSvcrRef>')))
    const references = result!.entries.map((entry) => entry.entryReference)
    expect(references[0]).toMatch(/^sha256\//)
    expect(references[1]).toMatch(/^sha256\//)
    expect(references[0]).not.toBe(references[1])
  })

  it('gives the same references to the same entries in another statement, and different ones to different entries', () => {
    const entries = `<Ntry><NtryRef>1</NtryRef>${ntry('2.00', 'DBIT').slice('<Ntry>'.length)}${ntry('3.00', 'DBIT')}`
    const [first] = plan(statement(entries, EUR_IBAN, 'S-1'))
    const [again] = plan(statement(entries, EUR_IBAN, 'S-2'))
    const [other] = plan(statement(entries.replaceAll('2.00', '2.01'), EUR_IBAN, 'S-3'))
    expect(again!.entries.map((entry) => entry.entryReference)).toEqual(first!.entries.map((entry) => entry.entryReference))
    expect(other!.entries[0]!.entryReference).not.toBe(first!.entries[0]!.entryReference)
  })
})

describe('amounts and balances', () => {
  it('signs amounts by CdtDbtInd in exact minor units of the account currency (JPY has none)', () => {
    const [eur] = plan(statement(ntry('1234567.89', 'CRDT') + ntry('0.10', 'DBIT')))
    expect(eur!.entries.map((entry) => entry.amount)).toEqual([123456789, -10])
    const [jpy] = plan(statement(ntry('1500', 'DBIT', '', 'JPY') + ntry('20.0', 'CRDT', '', 'JPY'), JPY_IBAN))
    expect(jpy!.entries.map((entry) => entry.amount)).toEqual([-1500, 20])
    expect(problems(statement(ntry('15.5', 'DBIT', '', 'JPY'), JPY_IBAN))).toEqual([expect.objectContaining({ field: 'Stmt[1].Ntry[1].Amt' })])
    expect(problems(statement(ntry('-5.00', 'DBIT')))).toEqual([expect.objectContaining({ field: 'Stmt[1].Ntry[1].Amt' })])
    expect(problems(statement(ntry('5.00', '')))).toEqual([expect.objectContaining({ field: 'Stmt[1].Ntry[1].CdtDbtInd', error: expect.stringContaining('required') })])
  })

  it('maps balance codes, signs a DBIT balance, keeps the last report of a day and ignores codes it does not record', () => {
    const [result] = plan(
      statement(
        bal('OPBD', '10.00', 'EUR', 'DBIT') +
          bal('ITBD', '1.00', 'EUR', 'CRDT', '<DtTm>2026-03-02T10:00:00+01:00</DtTm>') +
          bal('ITBD', '2.00', 'EUR', 'CRDT', '<DtTm>2026-03-02T14:00:00+01:00</DtTm>') +
          bal('FWAV', '99.00') +
          bal('CLBD', '5.00', 'EUR', 'DBIT') +
          ntry('5.00', 'CRDT'),
      ),
    )
    expect(result!.balances).toEqual([
      { code: 'OPBD', type: 'BOOKED', reportedType: 'OPEN', amount: -1000, localDate: '2026-03-02' },
      { code: 'ITBD', type: 'BOOKED', reportedType: 'INTERIM', amount: 200, localDate: '2026-03-02' },
      { code: 'CLBD', type: 'BOOKED', reportedType: 'CLOSE', amount: -500, localDate: '2026-03-02' },
    ])
  })

  it('checks opening + booked entries = closing, leaving pending entries out', () => {
    const pending = '<Ntry><Amt Ccy="EUR">100.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>PDNG</Sts></Ntry>'
    expect(plan(statement(bal('OPBD', '10.00') + bal('CLBD', '7.50') + ntry('2.50', 'DBIT') + pending))[0]!.entriesNotBooked).toBe(1)
    const [detail] = problems(statement(bal('OPBD', '10.00') + bal('CLBD', '107.50') + ntry('2.50', 'DBIT') + pending))
    expect(detail).toMatchObject({ code: 'balance_mismatch', field: 'Stmt[1].Bal[2]' })
    expect(detail!.error).toContain('10.00 + booked entries -2.50 = 7.50 EUR, but the closing balance (CLBD) is 107.50')
  })
})

describe('batched entries', () => {
  const part = (amount: string, name: string, currency = 'EUR') =>
    `<TxDtls><Refs><EndToEndId>E-${name}</EndToEndId></Refs><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><RltdPties><Cdtr><Nm>${name}</Nm></Cdtr></RltdPties></TxDtls>`

  it('splits when every part has an amount in the account currency and they add up', () => {
    const [result] = plan(statement(ntry('3.00', 'DBIT', `<AcctSvcrRef>B</AcctSvcrRef><NtryDtls>${part('1.00', 'A')}${part('2.00', 'B')}</NtryDtls>`)))
    expect(result!.entries).toEqual([
      expect.objectContaining({ entryReference: 'B/1', amount: -100, endToEndId: 'E-A', counterparty: { name: 'A' }, description: 'A' }),
      expect.objectContaining({ entryReference: 'B/2', amount: -200, endToEndId: 'E-B', counterparty: { name: 'B' } }),
    ])
  })

  it('books the entry whole when the parts do not add up or are in another currency', () => {
    const [mismatch] = plan(statement(ntry('3.00', 'DBIT', `<AcctSvcrRef>B</AcctSvcrRef><NtryDtls>${part('1.00', 'A')}${part('1.50', 'B')}</NtryDtls><AddtlNtryInf>Run</AddtlNtryInf>`)))
    expect(mismatch!.entries).toEqual([expect.objectContaining({ entryReference: 'B', amount: -300, description: 'Run' })])
    const [foreign] = plan(statement(ntry('3.00', 'DBIT', `<AcctSvcrRef>B</AcctSvcrRef><NtryDtls>${part('1.00', 'A', 'USD')}${part('2.00', 'B', 'USD')}</NtryDtls>`)))
    expect(foreign!.entries).toEqual([expect.objectContaining({ entryReference: 'B', amount: -300, description: 'Batch of 2 transactions' })])
  })
})

describe('statements', () => {
  it('rejects a statement without an IBAN, an unknown IBAN, and no statement at all', () => {
    const noIban = problems('<Stmt><Id>S</Id><Acct><Id><Othr><Id>12345</Id></Othr></Id></Acct></Stmt>')
    expect(noIban).toEqual([expect.objectContaining({ code: 'required', field: 'Stmt[1].Acct.Id.IBAN', error: expect.stringContaining('12345') })])
    expect(problems(statement('', 'NL91ABNA0417164300'))).toEqual([expect.objectContaining({ code: 'unknown_account' })])
    expect(problems()).toEqual([expect.objectContaining({ code: 'required', field: 'Stmt' })])
  })

  it('matches IBANs written with spaces or in lower case', () => {
    const [result] = plan(statement('', 'de89 3704 0044 0532 0130 00'))
    expect(result!.account.id).toBe('eur-account')
    expect(result!.iban).toBe(EUR_IBAN)
  })

  it('caps the details of a file with very many problems', () => {
    const entries = Array.from({ length: 80 }, () => ntry('1.001', 'DBIT')).join('')
    try {
      plan(statement(entries))
      throw new Error('accepted')
    } catch (error) {
      expect((error as ApiError).details).toHaveLength(50)
      expect((error as ApiError).message).toContain('and 79 more problems')
    }
  })
})
