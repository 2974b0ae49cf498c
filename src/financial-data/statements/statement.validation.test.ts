import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { parseCamt } from './camt-parser.js'
import { MemoryBudget } from './memory-budget.js'
import { statementTooLarge } from './statement.limits.js'
import { ImportPlanner, planImport, type StatementAccount } from './statement.validation.js'

const EUR_IBAN = 'DE89370400440532013000'
const JPY_IBAN = 'GB29NWBK60161331926819'
/** Keyed as accountRepo.byNumber keys them (accountNumberKey): a Swiss postal account registered as 30-38162-5. */
const accounts = new Map<string, StatementAccount[]>([
  [EUR_IBAN, [{ id: 'eur-account', organization_id: 'org', currency: 'EUR' }]],
  [JPY_IBAN, [{ id: 'jpy-account', organization_id: 'org', currency: 'JPY' }]],
  ['30381625', [{ id: 'chf-account', organization_id: 'org', currency: 'CHF' }]],
])

function bal(code: string, amount: string, currency = 'EUR', indicator = 'CRDT', date = '<Dt>2026-03-02</Dt>'): string {
  return `<Bal><Tp><CdOrPrtry><Cd>${code}</Cd></CdOrPrtry></Tp><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Dt>${date}</Dt></Bal>`
}

function ntry(amount: string, indicator: string, inner = '', currency = 'EUR'): string {
  return `<Ntry><Amt Ccy="${currency}">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts><BookgDt><Dt>2026-03-02</Dt></BookgDt>${inner}</Ntry>`
}

function statement(content: string, iban = EUR_IBAN, id = 'S-1', head = ''): string {
  return `<Stmt><Id>${id}</Id>${head}<Acct><Id><IBAN>${iban}</IBAN></Id></Acct>${content}</Stmt>`
}

function message(...statements: string[]) {
  return parseCamt(`<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.04"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId></GrpHdr>${statements.join('')}</BkToCstmrStmt></Document>`)
}

function plan(...statements: string[]) {
  return planImport(message(...statements), accounts)
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

describe('dates', () => {
  const entry = (dates: string, reference: string) => `<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts>${dates}<AcctSvcrRef>${reference}</AcctSvcrRef></Ntry>`

  it('books a date with a time zone on the local date written', () => {
    const [result] = plan(statement(bal('OPBD', '1.00', 'EUR', 'CRDT', '<Dt>2017-04-01+02:00</Dt>') + entry('<BookgDt><Dt>2017-04-01+02:00</Dt></BookgDt><ValDt><Dt>2017-04-03Z</Dt></ValDt>', 'A')))
    expect(result!.entries).toEqual([expect.objectContaining({ date: '2017-04-01', valueDate: '2017-04-03' })])
    expect(result!.entries[0]).not.toHaveProperty('dateSource')
    expect(result!.balances).toEqual([expect.objectContaining({ code: 'OPBD', localDate: '2017-04-01' })])
    expect(problems(statement(entry('<BookgDt><Dt>2017-04-31+02:00</Dt></BookgDt>', 'B')))).toEqual([
      expect.objectContaining({ field: 'Stmt[1].Ntry[1].BookgDt', error: expect.stringContaining("'2017-04-31' is not a date") }),
    ])
  })

  it("books an entry without BookgDt on its value date, else on the statement's date — the end of its period, else its creation", () => {
    const period = '<CreDtTm>2026-03-31T05:00:00+02:00</CreDtTm><FrToDt><FrDtTm>2026-03-30T00:00:00+02:00</FrDtTm><ToDtTm>2026-03-30T23:59:59+02:00</ToDtTm></FrToDt>'
    const [result] = plan(statement(entry('<ValDt><Dt>2026-03-31</Dt></ValDt>', 'A') + entry('', 'B'), EUR_IBAN, 'S-1', period))
    expect(result!.entries).toEqual([
      expect.objectContaining({ entryReference: 'A', date: '2026-03-31', valueDate: '2026-03-31', dateSource: 'VALUE_DATE' }),
      expect.objectContaining({ entryReference: 'B', date: '2026-03-30', valueDate: '2026-03-30', dateSource: 'STATEMENT_DATE' }),
    ])
    expect(result!.period).toEqual({ from: '2026-03-30', to: '2026-03-30' })
    const [created] = plan(statement(entry('', 'C'), EUR_IBAN, 'S-1', '<CreDtTm>2026-03-31T05:00:00+02:00</CreDtTm>'))
    expect(created!.entries).toEqual([expect.objectContaining({ date: '2026-03-31', dateSource: 'STATEMENT_DATE' })])
  })

  it('refuses a booked entry that has no date to take, or a value date that is none', () => {
    expect(problems(statement(entry('', 'A')))).toEqual([expect.objectContaining({ code: 'required', field: 'Stmt[1].Ntry[1].BookgDt', error: expect.stringContaining('without a value date') })])
    expect(problems(statement(entry('<ValDt><Dt>31.03.2026</Dt></ValDt>', 'A')))).toEqual([expect.objectContaining({ code: 'invalid_value', field: 'Stmt[1].Ntry[1].ValDt' })])
  })

  it('keeps the reference of an entry whatever date it took: the one the bank wrote is hashed', () => {
    const unreferenced = '<Ntry><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts></Ntry>'
    const [first] = plan(statement(unreferenced, EUR_IBAN, 'S-1', '<CreDtTm>2026-03-02T22:00:00Z</CreDtTm>'))
    const [later] = plan(statement(unreferenced, EUR_IBAN, 'S-2', '<CreDtTm>2026-03-03T06:00:00Z</CreDtTm>'))
    expect(later!.entries[0]!.entryReference).toBe(first!.entries[0]!.entryReference)
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
  it('rejects a statement that names no account, an unknown IBAN or other number, and no statement at all', () => {
    expect(problems('<Stmt><Id>S</Id><Acct><Ccy>EUR</Ccy></Acct></Stmt>')).toEqual([expect.objectContaining({ code: 'required', field: 'Stmt[1].Acct.Id' })])
    const unknownOther = problems('<Stmt><Id>S</Id><Acct><Id><Othr><Id>12345</Id></Othr></Id></Acct></Stmt>')
    expect(unknownOther).toEqual([expect.objectContaining({ code: 'unknown_account', field: 'Stmt[1].Acct.Id.Othr.Id', error: expect.stringContaining('account number 12345') })])
    expect(problems(statement('', 'NL91ABNA0417164300'))).toEqual([expect.objectContaining({ code: 'unknown_account', field: 'Stmt[1].Acct.Id.IBAN' })])
    expect(problems()).toEqual([expect.objectContaining({ code: 'required', field: 'Stmt' })])
  })

  it('matches an account named by Othr/Id to the account registered with that number, however either is formatted', () => {
    for (const written of ['30-38162-5', '30381625', '30 38162 5']) {
      const [result] = plan(`<Stmt><Id>S</Id><Acct><Id><Othr><Id>${written}</Id><SchmeNm><Cd>BBAN</Cd></SchmeNm></Othr></Id><Ccy>CHF</Ccy></Acct>${ntry('1.00', 'CRDT', '', 'CHF')}</Stmt>`)
      expect(result).toMatchObject({ account: { id: 'chf-account' }, otherAccountId: written, entries: [{ amount: 100 }] })
      expect(result).not.toHaveProperty('iban')
    }
  })

  it("reports the faults of a statement's entries and balances first, then the account rule", () => {
    const faults = problems(
      statement(bal('OPBD', '10.00') + ntry('1.00', '') + ntry('2.00', 'DBIT', '', 'USD') + bal('CLBD', '7.00', 'EUR', 'CRDT', '<Dt>2026-02-30</Dt>'), 'NL91ABNA0417164300', 'S-9', ''),
    )
    expect(faults.map(({ code, field }) => [code, field])).toEqual([
      ['invalid_value', 'Stmt[1].Ntry[1].CdtDbtInd'],
      ['currency_mismatch', 'Stmt[1].Ntry[2].Amt'],
      ['invalid_value', 'Stmt[1].Bal[2].Dt'],
      ['unknown_account', 'Stmt[1].Acct.Id.IBAN'],
    ])
    // Without Acct/Ccy or a known account, the statement is in the currency of its first amount.
    expect(faults[1]!.error).toMatch(/^is in USD, but statement S-9 is in EUR/)
  })

  it('checks the sums of a statement of an unknown account, and reports an account in another currency after them', () => {
    const unknown = problems(statement(bal('OPBD', '10.00') + bal('CLBD', '9.00') + ntry('2.00', 'DBIT'), 'NL91ABNA0417164300'))
    expect(unknown.map(({ code }) => code)).toEqual(['balance_mismatch', 'unknown_account'])
    const yen = problems(`<Stmt><Id>S</Id><Acct><Id><IBAN>${JPY_IBAN}</IBAN></Id><Ccy>EUR</Ccy></Acct>${ntry('2.005', 'DBIT')}</Stmt>`)
    expect(yen.map(({ code, field }) => [code, field])).toEqual([
      ['invalid_value', 'Stmt[1].Ntry[1].Amt'],
      ['currency_mismatch', 'Stmt[1].Acct.Ccy'],
    ])
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

describe('pending entries (Sts PDNG)', () => {
  function pdng(amount: string, inner: string, dates = '<ValDt><Dt>2026-03-04</Dt></ValDt>'): string {
    return `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts>PDNG</Sts>${dates}${inner}</Ntry>`
  }

  it('plans those with the bank reference (AcctSvcrRef), once each, dated BookgDt, else ValDt, else the statement date', () => {
    const [result] = plan(
      statement(
        [
          pdng('4.00', '<AcctSvcrRef>PEND-1</AcctSvcrRef>'),
          pdng('4.00', '<AcctSvcrRef>PEND-1</AcctSvcrRef>'),
          pdng('5.00', '<AcctSvcrRef>PEND-2</AcctSvcrRef>', '<BookgDt><Dt>2026-03-05</Dt></BookgDt>'),
          pdng('6.00', '<AcctSvcrRef>PEND-3</AcctSvcrRef>', ''),
          pdng('7.00', ''),
          pdng('8.00', '<AcctSvcrRef>NONREF</AcctSvcrRef>'),
        ].join(''),
        EUR_IBAN,
        'S-1',
        '<FrToDt><FrDtTm>2026-03-02T00:00:00</FrDtTm><ToDtTm>2026-03-02T23:59:59</ToDtTm></FrToDt>',
      ),
    )
    expect(result!.entriesNotBooked).toBe(6)
    expect(result!.entries).toEqual([])
    const pending = result!.pending.all()
    expect(pending.map((entry) => [entry.entryReference, entry.amount, entry.date, entry.valueDate])).toEqual([
      ['PEND-1', -400, '2026-03-04', '2026-03-04'],
      ['PEND-2', -500, '2026-03-05', '2026-03-05'],
      ['PEND-3', -600, '2026-03-02', '2026-03-02'],
    ])
    expect(pending.every((entry) => !('dateSource' in entry))).toBe(true)
  })

  it('leaves out one whose amount or dates are unusable, without failing the file', () => {
    const [result] = plan(
      statement(
        [
          pdng('1.005', '<AcctSvcrRef>PEND-1</AcctSvcrRef>'),
          pdng('2.00', '<AcctSvcrRef>PEND-2</AcctSvcrRef>', '<ValDt><Dt>2026-02-30</Dt></ValDt>'),
          pdng('3.00', '<AcctSvcrRef>PEND-3</AcctSvcrRef>').replace('Ccy="EUR"', 'Ccy="USD"'),
        ].join(''),
      ),
    )
    expect(result!.entriesNotBooked).toBe(3)
    expect(result!.pending.all()).toEqual([])
  })
})

describe('the plan\'s memory budget', () => {
  /** A budget that records the most it was ever charged with. */
  class WatchedBudget extends MemoryBudget {
    charged = 0
    peak = 0
    override take(bytes: number): void {
      this.charged += bytes
      this.peak = Math.max(this.peak, this.charged)
      super.take(bytes)
    }
  }

  it('counts a split entry part by part: an entry whose 1,000 parts repeat its long AddtlNtryInf is refused one part past the budget', () => {
    const limit = 1024 * 1024
    const text = 'x'.repeat(10_000)
    const parts = Array.from({ length: 1_000 }, (_, n) => `<TxDtls><Refs><EndToEndId>E${n}</EndToEndId></Refs><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>DBIT</CdtDbtInd></TxDtls>`)
    const { statements, lineOf } = message(statement(ntry('1000.00', 'DBIT', `<NtryDtls>${parts.join('')}</NtryDtls><AddtlNtryInf>${text}</AddtlNtryInf>`)))
    const budget = new WatchedBudget(limit, () => statementTooLarge('its plan takes too much memory'))
    const planner = new ImportPlanner(accounts, lineOf, budget)
    planner.statement(statements[0]!)
    expect(() => planner.entry(statements[0]!.entries[0]!)).toThrow(expect.objectContaining({ status: 413 }))
    // Each part is one transaction described by the entry's text: the plan held at most one of them past the limit.
    expect(budget.peak).toBeGreaterThan(limit)
    expect(budget.peak).toBeLessThan(limit + 2 * text.length)
  })
})
