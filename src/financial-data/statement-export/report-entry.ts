import { formatMinorUnits } from '../../shared/money.js'
import { element, type XmlElement } from '../../shared/xml-text.js'
import type { BankTransactionCode } from '../transactions/transaction.schemas.js'
import { schemaText, wholeReference } from './camt053-text.js'
import { optional, transactionDetails, type AmountWriter, type CreditDebit, type EntryTransaction } from './entry-details.js'

export * from './entry-details.js'

/**
 * One booked entry as ISO 20022's ReportEntry10 has it: the Ntry of a camt.053.001.08 statement and of a
 * camt.054.001.08 notification alike (both schemas use the same type, element for element). Written once
 * here for Kassa's statement export (camt053.writer.ts) and the simulated bank's notifications
 * (src/connectivity/bank-side/camt054.writer.ts). Amounts are integer minor units of the account's
 * currency, never negative: the direction is CdtDbtInd.
 */

/** BatchInformation2 (NtryDtls/Btch): the payment information a batch booking books at once. */
export interface EntryBatch {
  messageId?: string
  paymentInformationId?: string
  numberOfTransactions?: number
  total?: { amount: number; creditDebit: CreditDebit }
}

export interface ReportEntry {
  amount: number
  creditDebit: CreditDebit
  /** yyyy-mm-dd. */
  bookingDate: string
  valueDate: string
  accountServicerReference?: string
  /** BkTxCd is required: without a complete domain code or a proprietary one, Prtry/Cd NOTPROVIDED. */
  bankTransactionCode?: BankTransactionCode
  batch?: EntryBatch
  /** One TxDtls each, after the Btch, in one NtryDtls. */
  transactions: readonly EntryTransaction[]
  additionalInformation?: string
}

/** The entry's currency and its ISO 4217 minor digits. */
export interface EntryCurrency {
  currency: string
  exponent: number
}

/** Ntry in ReportEntry10's sequence order. @throws RangeError for an amount that is no non-negative safe integer. */
export function reportEntryElement(entry: ReportEntry, money: EntryCurrency): XmlElement {
  const amount: AmountWriter = (name, minor) => amountElement(name, minor, money)
  const batch = entry.batch && batchElement(entry.batch, amount)
  const details = entry.transactions.map((transaction) => transactionDetails(transaction, amount)).filter((part) => part !== undefined)
  return element('Ntry', [
    amount('Amt', entry.amount),
    element('CdtDbtInd', entry.creditDebit),
    element('Sts', [element('Cd', 'BOOK')]),
    element('BookgDt', [element('Dt', entry.bookingDate)]),
    element('ValDt', [element('Dt', entry.valueDate)]),
    optional(wholeReference(entry.accountServicerReference), (reference) => element('AcctSvcrRef', reference)),
    bankTransactionCode(entry.bankTransactionCode),
    batch || details.length > 0 ? element('NtryDtls', [batch, ...details]) : undefined,
    optional(schemaText(entry.additionalInformation, 500), (text) => element('AddtlNtryInf', text)),
  ])
}

function amountElement(name: string, minor: number, { currency, exponent }: EntryCurrency): XmlElement {
  if (!Number.isSafeInteger(minor) || minor < 0) throw new RangeError(`An entry amount must be a non-negative integer of minor units, not ${minor}`)
  return element(name, formatMinorUnits(minor, exponent), { Ccy: currency })
}

/** BkTxCd: the ISO domain, family and sub-family when all three are given, else the proprietary code. */
function bankTransactionCode(code: BankTransactionCode | undefined): XmlElement {
  const [domain, family, subfamily] = [code?.domain, code?.family, code?.subfamily].map((part) => schemaText(part, 4))
  if (domain && family && subfamily) {
    return element('BkTxCd', [element('Domn', [element('Cd', domain), element('Fmly', [element('Cd', family), element('SubFmlyCd', subfamily)])])])
  }
  const proprietary = schemaText(code?.proprietary?.code, 35)
  return element('BkTxCd', [
    element('Prtry', [element('Cd', proprietary ?? 'NOTPROVIDED'), optional(proprietary && schemaText(code?.proprietary?.issuer, 35), (issuer) => element('Issr', issuer))]),
  ])
}

/** Btch: its ids, its count and its total (TtlAmt with its own CdtDbtInd). */
function batchElement(batch: EntryBatch, amount: AmountWriter): XmlElement {
  return element('Btch', [
    optional(wholeReference(batch.messageId), (id) => element('MsgId', id)),
    optional(wholeReference(batch.paymentInformationId), (id) => element('PmtInfId', id)),
    optional(batch.numberOfTransactions, (count) => element('NbOfTxs', String(count))),
    optional(batch.total, (total) => amount('TtlAmt', total.amount)),
    optional(batch.total, (total) => element('CdtDbtInd', total.creditDebit)),
  ])
}
