import { describe, expect, it } from 'vitest'
import { writeCamt054 } from '../../../src/connectivity/bank-side/index.js'
import { parseCamt } from '../../../src/financial-data/statements/camt-parser.js'
import { currencyExponent, parseDecimal } from '../../../src/shared/money.js'
import { HOSTILE_NAME, IBAN } from '../bank-files/batches.js'
import { xsdErrors, type Document } from '../bank-files/xsd-validator.js'
import { batch, notificationDocument, returns, single } from './notifications.js'

/** Issue 12, the bank's side: camt.054 notifications valid against the XSD, and read by Kassa's own camt reader as written. */

// xsd-validator.ts names the versions Kassa writes elsewhere; its schema is found by the version's file name.
const CAMT054: Document['version'] = 'camt.054.001.08'

describe('writeCamt054', () => {
  it('is valid against camt.054.001.08: single, batch (with and without details) and return entries, 0-, 2- and 3-digit currencies', async () => {
    const documents = [
      notificationDocument(),
      { messageId: 'NTF-EMPTY', creationDateTime: new Date('2026-03-03T00:00:00Z'), notifications: [{ id: 'N-0', account: { iban: IBAN.BE, currency: 'EUR' }, entries: [] }] },
    ]
    expect(await xsdErrors(documents.map((document) => ({ version: CAMT054, xml: writeCamt054(document) })))).toEqual([[], []])
  })

  it('is read by Kassa’s camt reader: accounts, amounts in minor units, end-to-end ids, batches, return reasons, parties', () => {
    const message = parseCamt(writeCamt054(notificationDocument()))
    expect(message).toMatchObject({ kind: 'camt.054', version: '001.08', messageId: 'NTF-2026-0001' })
    expect(message.statements.map((statement) => [statement.id, statement.account, statement.creationDate])).toEqual([
      ['N-EUR', { iban: IBAN.DE, currency: 'EUR' }, '2026-03-03'],
      ['N-JPY', { iban: IBAN.NL, currency: 'JPY' }, '2026-03-03'],
      ['N-KWD', { iban: IBAN.AT, currency: 'KWD' }, '2026-03-03'],
    ])
    const minor = (amount: { value: string; currency?: string } | undefined) => parseDecimal(amount!.value, currencyExponent(amount!.currency!)!)
    const entries = message.statements.flatMap((statement) => statement.entries)
    expect(entries.map((entry) => [entry.accountServicerReference, minor(entry.amount), entry.amount!.currency, entry.creditDebit, entry.status])).toEqual([
      ['BANKREF-1', 1502, 'EUR', 'DBIT', 'BOOK'],
      ['BANKREF-B1', 60_01, 'EUR', 'DBIT', 'BOOK'],
      ['BANKREF-B2', 60_01, 'EUR', 'DBIT', 'BOOK'],
      ['BANKREF-R1', 1502, 'EUR', 'CRDT', 'BOOK'],
      ['BANKREF-R2', 99, 'EUR', 'DBIT', 'BOOK'],
      [undefined, 250, 'EUR', 'CRDT', 'BOOK'],
      [undefined, 0, 'EUR', 'CRDT', 'BOOK'],
      ['BANKREF-1', 1502, 'JPY', 'DBIT', 'BOOK'],
      ['BANKREF-B2', 1502, 'KWD', 'DBIT', 'BOOK'],
    ])
    expect(entries[7]!.amount!.value).toBe('1502')
    expect(entries[8]!.amount!.value).toBe('1.502')
    expect(entries.map((entry) => entry.batchPaymentInformationId)).toEqual([undefined, 'PMTINF-BATCH', 'PMTINF-BATCH', undefined, undefined, undefined, undefined, undefined, 'PMTINF-BATCH'])
    expect(entries.map((entry) => entry.details.map((details) => details.endToEndId))).toEqual([
      ['E2E-1'],
      [],
      ['E2E-B1', 'E2E-B2', 'E2E-B3'],
      ['E2E-1'],
      ['E2E-DD-1'],
      ['E2E-DD-2'],
      [],
      ['E2E-1'],
      ['E2E-B1', 'E2E-B2', 'E2E-B3'],
    ])
    expect(entries[2]!.details.map((details) => minor(details.amount))).toEqual([10_00, 20_00, 30_01])
    expect(entries[3]!.details[0]!.returnReason).toEqual({ code: 'AC04', additionalInfo: 'Account closed & <gone>' })
    expect(entries[4]!.details[0]).toMatchObject({ returnReason: { code: 'MD06' }, mandateId: 'MANDATE-1' })
    expect(entries[3]!.bankTransactionCode).toEqual({ domain: 'PMNT', family: 'ICDT', subfamily: 'RRTN' })
    expect(entries[6]!.additionalInfo).toBe('Zero & nothing')
  })

  it('carries hostile names and remittance through the escaping, with both parties and their accounts', () => {
    const [details] = parseCamt(writeCamt054(notificationDocument())).statements[0]!.entries[0]!.details
    expect(details).toMatchObject({
      debtor: { name: 'Kassa Demo GmbH', iban: IBAN.DE, bic: 'COBADEFFXXX' },
      creditor: { name: HOSTILE_NAME, iban: IBAN.FR },
      unstructured: ['Invoice 1 & <2> "quoted"'],
      endToEndId: single.transactions[0]!.references!.endToEndId,
    })
  })

  it('refuses what the schema cannot carry: an unknown currency, a negative or fractional amount, no IBAN, a long id', () => {
    const write = (change: (document: ReturnType<typeof notificationDocument>) => void) => () => {
      const document = notificationDocument()
      change(document)
      return writeCamt054(document)
    }
    const first = (document: ReturnType<typeof notificationDocument>) => document.notifications[0] as { account: { iban: string; currency: string }; entries: unknown[]; id: string }
    expect(write((document) => (first(document).account.currency = 'XXX'))).toThrow(RangeError)
    expect(write((document) => (first(document).account.iban = 'DE00 not an IBAN'))).toThrow(RangeError)
    expect(write((document) => (first(document).entries = [{ ...returns[0]!, amount: -5 }]))).toThrow(RangeError)
    expect(write((document) => (first(document).entries = [{ ...batch(false), amount: 10.5 }]))).toThrow(RangeError)
    expect(write((document) => (first(document).id = 'N'.repeat(36)))).toThrow(/Id/)
  })
})
