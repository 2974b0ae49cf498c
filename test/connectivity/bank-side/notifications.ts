import type { NotificationDocument, NotificationEntry } from '../../../src/connectivity/bank-side/index.js'
import { BIC, HOSTILE_NAME, IBAN } from '../bank-files/batches.js'

/** camt.054 notifications for the writer's tests: each kind of booking the simulated bank makes, by name. */

const day = { bookingDate: '2026-03-03', valueDate: '2026-03-03' }

/** A pain.001's credit transfer booked on its own (BtchBookg false): one TxDtls with everything a bank reports. */
export const single: NotificationEntry = {
  amount: 1502,
  creditDebit: 'DBIT',
  ...day,
  accountServicerReference: 'BANKREF-1',
  bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
  transactions: [
    {
      references: { messageId: 'MSG-2026-0001', paymentInformationId: 'PMTINF-1', instructionId: 'INSTR-1', endToEndId: 'E2E-1' },
      amount: 1502,
      creditDebit: 'DBIT',
      debtor: { name: 'Kassa Demo GmbH', account: { iban: IBAN.DE }, bic: BIC.DE },
      creditor: { name: HOSTILE_NAME, account: { iban: IBAN.FR } },
      remittance: 'Invoice 1 & <2> "quoted"',
    },
  ],
}

/** A payment information booked at once (BtchBookg true): Btch, and its transactions when `details`. */
export function batch(details: boolean): NotificationEntry {
  return {
    amount: 60_01,
    creditDebit: 'DBIT',
    ...day,
    accountServicerReference: details ? 'BANKREF-B2' : 'BANKREF-B1',
    bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' },
    batch: { messageId: 'MSG-2026-0002', paymentInformationId: 'PMTINF-BATCH', numberOfTransactions: 3, total: { amount: 60_01, creditDebit: 'DBIT' } },
    transactions: details
      ? [10_00, 20_00, 30_01].map((amount, index) => ({ references: { endToEndId: `E2E-B${index + 1}` }, amount, creditDebit: 'DBIT' as const, creditor: { name: `Creditor ${index + 1}`, account: { iban: IBAN.NL } } }))
      : [],
  }
}

/** A credit transfer returned by the creditor's bank, and a direct debit returned by the debtor's. */
export const returns: NotificationEntry[] = [
  {
    amount: 1502,
    creditDebit: 'CRDT',
    ...day,
    accountServicerReference: 'BANKREF-R1',
    bankTransactionCode: { domain: 'PMNT', family: 'ICDT', subfamily: 'RRTN' },
    transactions: [{ references: { endToEndId: 'E2E-1' }, amount: 1502, creditDebit: 'CRDT', returnReason: { code: 'AC04', additionalInformation: 'Account closed & <gone>' } }],
  },
  {
    amount: 99,
    creditDebit: 'DBIT',
    ...day,
    accountServicerReference: 'BANKREF-R2',
    bankTransactionCode: { domain: 'PMNT', family: 'IDDT', subfamily: 'UPDD' },
    transactions: [{ references: { endToEndId: 'E2E-DD-1', mandateId: 'MANDATE-1' }, amount: 99, creditDebit: 'DBIT', returnReason: { code: 'MD06' } }],
  },
]

/** A collection of a pain.008 and an incoming transfer, with what else an entry may carry. */
export const others: NotificationEntry[] = [
  { amount: 250, creditDebit: 'CRDT', ...day, bankTransactionCode: { domain: 'PMNT', family: 'IDDT', subfamily: 'ESDD' }, transactions: [{ references: { endToEndId: 'E2E-DD-2', mandateId: 'MANDATE-2' } }] },
  { amount: 0, creditDebit: 'CRDT', ...day, bankTransactionCode: { domain: 'PMNT', family: 'IRCT', subfamily: 'ESCT' }, transactions: [{ debtor: { name: '' } }], additionalInformation: 'Zero & nothing' },
]

/** Every kind on one EUR account, and JPY (0 digits) and KWD (3 digits) accounts of one entry each. */
export function notificationDocument(): NotificationDocument {
  return {
    messageId: 'NTF-2026-0001',
    creationDateTime: new Date('2026-03-03T18:00:00.500Z'),
    notifications: [
      { id: 'N-EUR', account: { iban: IBAN.DE, currency: 'EUR', servicerBic: BIC.DE }, entries: [single, batch(false), batch(true), ...returns, ...others] },
      { id: 'N-JPY', creationDateTime: new Date('2026-03-03T18:01:00Z'), account: { iban: IBAN.NL, currency: 'JPY' }, entries: [{ ...single, amount: 1502, transactions: [{ ...single.transactions[0]!, amount: 1502 }] }] },
      { id: 'N-KWD', account: { iban: IBAN.AT, currency: 'KWD' }, entries: [{ ...batch(true), amount: 1502, batch: { ...batch(true).batch, total: { amount: 1502, creditDebit: 'DBIT' } } }] },
    ],
  }
}
