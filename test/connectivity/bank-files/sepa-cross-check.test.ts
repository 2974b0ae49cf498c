import fc from 'fast-check'
import { Document as SepaDocument } from 'sepa'
import { describe, expect, it } from 'vitest'
import {
  writePain001,
  writePain008,
  type Counterparty,
  type CreditTransferBatch,
  type DirectDebitBatch,
  type MessageHeader,
  type OwnAccount,
  type PainVersion,
  type PaymentInformationCommon,
  type TransactionCommon,
} from '../../../src/connectivity/bank-files/index.js'
import { BIC, COUNTERPARTIES, IBAN, message } from './batches.js'
import { whatTheBankReads } from './what-the-bank-reads.js'

/**
 * The same payments written by Kassa and by an independent generator, the `sepa` package (sepa.js), and
 * both files read back with one parser into the values a bank acts on: amounts, counts, control sums,
 * IBANs, BICs, ids, mandates and dates must agree. sepa.js takes amounts as JavaScript numbers in major
 * units, so the batches are EUR within its range (0.01 to 999999999.99); its dates are local calendar
 * days, so they are built as local dates. It prefixes payment information ids with the message id and
 * instruction ids with the payment information id: Kassa's batches use ids of that form, and sepa.js is
 * given the suffixes.
 */

const MESSAGE_ID = 'MSG-2026-0001'

/** The counterparties sepa.js accepts: names of at most 70 UTF-16 units, a BIC of the IBAN's country, no address (it writes AdrLine only). */
const SEPA_COUNTERPARTIES: Counterparty[] = ['plain', 'withBic', 'hostileName'].map((name) => COUNTERPARTIES[name]!)

interface Payment {
  counterparty: Counterparty
  /** Euro cents. */
  cents: number
  mandate?: { id: string; signatureDate: string }
}

interface Group {
  date: string
  batchBooking: boolean
  ownAccount: OwnAccount
  sequenceType: 'FRST' | 'RCUR' | 'FNAL' | 'OOFF'
  payments: Payment[]
}

function localDate(isoDate: string): Date {
  const [year, month, day] = isoDate.split('-').map(Number)
  return new Date(year!, month! - 1, day!)
}

function suffix(prefix: string, id: string): string {
  if (!id.startsWith(`${prefix}.`)) throw new Error(`${id} does not start with ${prefix}.`)
  return id.slice(prefix.length + 1)
}

const header: MessageHeader = message({ messageId: MESSAGE_ID, initiatingParty: { name: 'Kassa & Söhne <Demo>' } })

/** What a payment information and a transaction are in both kinds of batch, built from a group and a payment. */
const informationOf = (group: Group, p: number) => ({ paymentInformationId: `${MESSAGE_ID}.P${p}`, batchBooking: group.batchBooking })
const transactionOf = (payment: Payment, p: number, n: number) => ({
  instructionId: `${MESSAGE_ID}.P${p}.${n}`,
  endToEndId: `E2E-${p}-${n}`,
  amount: { value: payment.cents, currency: 'EUR' },
  remittance: { unstructured: `Payment ${p}/${n} & <more>` },
})

function creditTransfers(version: 'pain.001.001.09' | 'pain.001.001.03', groups: Group[]): CreditTransferBatch {
  return {
    version,
    message: header,
    paymentInformation: groups.map((group, p) => ({
      ...informationOf(group, p),
      requestedExecutionDate: group.date,
      debtor: group.ownAccount,
      transactions: group.payments.map((payment, n) => ({ ...transactionOf(payment, p, n), creditor: payment.counterparty })),
    })),
  }
}

function directDebits(version: 'pain.008.001.08' | 'pain.008.001.02', groups: Group[]): DirectDebitBatch {
  return {
    version,
    message: header,
    paymentInformation: groups.map((group, p) => ({
      ...informationOf(group, p),
      requestedCollectionDate: group.date,
      localInstrument: 'CORE',
      sequenceType: group.sequenceType,
      creditorSchemeId: 'DE98ZZZ09999999999',
      creditor: group.ownAccount,
      transactions: group.payments.map((payment, n) => ({
        ...transactionOf(payment, p, n),
        mandate: payment.mandate ?? { id: `MANDATE-${p}-${n}`, signatureDate: '2025-06-30' },
        debtor: payment.counterparty,
      })),
    })),
  }
}

type SepaPaymentInfo = ReturnType<SepaDocument['createPaymentInfo']>
type SepaTransaction = ReturnType<SepaPaymentInfo['createTransaction']>

/** The same batch through sepa.js: what both kinds share here, the rest by `fill…`. */
function sepaXml<I extends PaymentInformationCommon & { transactions: TransactionCommon[] }>(
  version: PainVersion,
  paymentInformation: I[],
  fillInformation: (info: SepaPaymentInfo, information: I) => void,
  fillTransaction: (tx: SepaTransaction, transaction: I['transactions'][number]) => void,
): string {
  const document = new SepaDocument(version)
  document.grpHdr.id = header.messageId
  document.grpHdr.created = header.creationDateTime
  document.grpHdr.initiatorName = header.initiatingParty.name
  for (const information of paymentInformation) {
    const info = document.createPaymentInfo()
    info.id = suffix(header.messageId, information.paymentInformationId)
    info.batchBooking = information.batchBooking
    fillInformation(info, information)
    document.addPaymentInfo(info)
    for (const transaction of information.transactions) {
      const tx = info.createTransaction()
      tx.id = suffix(information.paymentInformationId, transaction.instructionId)
      tx.end2endId = transaction.endToEndId
      tx.amount = transaction.amount.value / 100
      tx.currency = transaction.amount.currency
      tx.remittanceInfo = transaction.remittance && 'unstructured' in transaction.remittance ? transaction.remittance.unstructured : ''
      fillTransaction(tx, transaction)
      info.addTransaction(tx)
    }
  }
  return document.toString()
}

function sepaCreditTransfers(batch: CreditTransferBatch): string {
  return sepaXml(
    batch.version!,
    batch.paymentInformation,
    (info, information) => {
      info.requestedExecutionDate = localDate(information.requestedExecutionDate)
      info.debtorName = information.debtor.name
      info.debtorIBAN = information.debtor.iban
      info.debtorBIC = information.debtor.bic ?? ''
    },
    (tx, transaction) => {
      tx.creditorName = transaction.creditor.name
      tx.creditorIBAN = transaction.creditor.iban
      tx.creditorBIC = transaction.creditor.bic ?? ''
    },
  )
}

function sepaDirectDebits(batch: DirectDebitBatch): string {
  return sepaXml(
    batch.version!,
    batch.paymentInformation,
    (info, information) => {
      info.collectionDate = localDate(information.requestedCollectionDate)
      info.localInstrumentation = information.localInstrument
      info.sequenceType = information.sequenceType
      info.creditorId = information.creditorSchemeId
      info.creditorName = information.creditor.name
      info.creditorIBAN = information.creditor.iban
      info.creditorBIC = information.creditor.bic ?? ''
    },
    (tx, transaction) => {
      tx.mandateId = transaction.mandate.id
      tx.mandateSignatureDate = localDate(transaction.mandate.signatureDate)
      tx.debtorName = transaction.debtor.name
      tx.debtorIBAN = transaction.debtor.iban
      tx.debtorBIC = transaction.debtor.bic ?? ''
    },
  )
}

const GROUPS: Group[] = [
  {
    date: '2026-03-03',
    batchBooking: true,
    ownAccount: { name: 'Kassa Demo GmbH', iban: IBAN.DE, bic: BIC.DE, currency: 'EUR' },
    sequenceType: 'FRST',
    payments: SEPA_COUNTERPARTIES.flatMap((counterparty, index) => [
      { counterparty, cents: 1502 + index },
      { counterparty, cents: 99_999_999_999 },
      { counterparty, cents: 1, mandate: { id: `MANDATE/${index}`, signatureDate: '2024-02-29' } },
    ]),
  },
  {
    date: '2026-12-31',
    batchBooking: false,
    ownAccount: { name: 'Kassa Niederlassung Wien', iban: IBAN.AT, currency: 'EUR' },
    sequenceType: 'RCUR',
    payments: [{ counterparty: COUNTERPARTIES.withBic!, cents: 250_00 }],
  },
]

describe('credit transfers written by Kassa and by sepa.js', () => {
  it.each(['pain.001.001.09', 'pain.001.001.03'] as const)('agree in %s', (version) => {
    const batch = creditTransfers(version, GROUPS)
    const ours = whatTheBankReads(writePain001(batch).xml)
    expect(ours).toEqual(whatTheBankReads(sepaCreditTransfers(batch)))
    expect(ours).toMatchObject({ numberOfTransactions: '10', controlSum: '3000000295.09' })
  })
})

describe('direct debits written by Kassa and by sepa.js', () => {
  it.each(['pain.008.001.08', 'pain.008.001.02'] as const)('agree in %s', (version) => {
    const batch = directDebits(version, GROUPS)
    const ours = whatTheBankReads(writePain008(batch).xml)
    expect(ours).toEqual(whatTheBankReads(sepaDirectDebits(batch)))
    expect(ours.paymentInformation[0]!.transactions[2]).toMatchObject({ mandateId: 'MANDATE/0', mandateSignatureDate: '2024-02-29', amount: '0.01' })
  })
})

const group: fc.Arbitrary<Group> = fc.record({
  date: fc.date({ min: new Date('2026-01-01'), max: new Date('2030-12-31'), noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)),
  batchBooking: fc.boolean(),
  ownAccount: fc.constantFrom<OwnAccount>(
    { name: 'Kassa Demo GmbH', iban: IBAN.DE, bic: BIC.DE, currency: 'EUR' },
    { name: 'Kassa Paris', iban: IBAN.FR, currency: 'EUR' },
  ),
  sequenceType: fc.constantFrom('FRST', 'RCUR', 'FNAL', 'OOFF'),
  payments: fc.array(fc.record({ counterparty: fc.constantFrom(...SEPA_COUNTERPARTIES), cents: fc.integer({ min: 1, max: 99_999_999_999 }) }), { minLength: 1, maxLength: 12 }),
})

describe('random batches written by Kassa and by sepa.js', () => {
  it.each(['pain.001.001.09', 'pain.001.001.03'] as const)('agree in %s', (version) => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 3 }), (groups) => {
        const batch = creditTransfers(version, groups)
        expect(whatTheBankReads(writePain001(batch).xml)).toEqual(whatTheBankReads(sepaCreditTransfers(batch)))
      }),
      { numRuns: 60 },
    )
  })

  it.each(['pain.008.001.08', 'pain.008.001.02'] as const)('agree in %s', (version) => {
    fc.assert(
      fc.property(fc.array(group, { minLength: 1, maxLength: 3 }), (groups) => {
        const batch = directDebits(version, groups)
        expect(whatTheBankReads(writePain008(batch).xml)).toEqual(whatTheBankReads(sepaDirectDebits(batch)))
      }),
      { numRuns: 60 },
    )
  })
})
