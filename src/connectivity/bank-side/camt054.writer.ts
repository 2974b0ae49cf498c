import { reportEntryElement, type ReportEntry } from '../../financial-data/statement-export/report-entry.js'
import { BIC_PATTERN, IBAN_PATTERN } from '../../financial-data/statement-export/camt053-text.js'
import { currencyExponent } from '../../shared/money.js'
import { element, serializeDocument, type XmlElement } from '../../shared/xml-text.js'
import { dateTime, identifier } from './iso-values.js'

/**
 * A bank's camt.054.001.08 debit/credit notification (BkToCstmrDbtCdtNtfctn): what the simulated bank tells
 * the customer it booked — a pain.001's debits (PMNT/ICDT/ESCT), a pain.008's collections (PMNT/IDDT/ESDD),
 * incoming transfers (PMNT/IRCT/ESCT), direct debits of the account (PMNT/RDDT/ESDD), returns with their
 * RtrInf (e.g. PMNT/ICDT/RRTN, PMNT/IDDT/UPDD). The codes are the caller's (ReportEntry.bankTransactionCode). Each Ntry
 * is written by the camt.053 statement export's entry writer (financial-data/statement-export/report-entry.ts):
 * camt.053.001.08 and camt.054.001.08 share ReportEntry10, so one entry reads the same in either.
 *
 * A batch booking is one entry with NtryDtls/Btch (MsgId, PmtInfId, NbOfTxs, TtlAmt, CdtDbtInd) and, if
 * given, one TxDtls per transaction; a single booking one entry with one TxDtls (Refs, Amt, RltdPties,
 * RmtInf, RtrInf for a return).
 */

export type { ReportEntry as NotificationEntry, EntryBatch, EntryTransaction, EntryParty, EntryAccount, EntryReferences, ReturnReason, CreditDebit } from '../../financial-data/statement-export/report-entry.js'

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.054.001.08'

/** One Ntfctn: the entries booked on one account. */
export interface AccountNotification {
  /** Max35Text, unique per notification of the account. */
  id: string
  /** Ntfctn/CreDtTm; the message's unless given. */
  creationDateTime?: Date
  account: {
    iban: string
    /** ISO 4217; every entry's amounts are minor units of it. */
    currency: string
    /** Acct/Svcr: the account servicer's BIC. */
    servicerBic?: string
  }
  entries: readonly ReportEntry[]
}

export interface NotificationDocument {
  messageId: string
  creationDateTime: Date
  notifications: readonly AccountNotification[]
}

/**
 * camt.054.001.08 in the schema's sequence order.
 * @throws RangeError for what the schema cannot carry: an id of more than 35 characters, an IBAN, BIC or
 * currency that is none, an amount that is no non-negative integer of minor units.
 */
export function writeCamt054(document: NotificationDocument): string {
  const root = element('BkToCstmrDbtCdtNtfctn', [
    element('GrpHdr', [identifier('MsgId', document.messageId), dateTime('CreDtTm', document.creationDateTime)]),
    ...document.notifications.map((notification) => notificationElement(notification, document.creationDateTime)),
  ])
  return serializeDocument(element('Document', [root], { xmlns: NAMESPACE }))
}

function notificationElement(notification: AccountNotification, created: Date): XmlElement {
  const { iban, currency, servicerBic } = notification.account
  const exponent = currencyExponent(currency)
  if (exponent === undefined) throw new RangeError(`${currency} is no ISO 4217 currency`)
  if (!IBAN_PATTERN.test(iban)) throw new RangeError(`${iban} is no IBAN`)
  if (servicerBic !== undefined && !BIC_PATTERN.test(servicerBic)) throw new RangeError(`${servicerBic} is no BIC`)
  return element('Ntfctn', [
    identifier('Id', notification.id),
    dateTime('CreDtTm', notification.creationDateTime ?? created),
    element('Acct', [
      element('Id', [element('IBAN', iban)]),
      element('Ccy', currency),
      servicerBic === undefined ? undefined : element('Svcr', [element('FinInstnId', [element('BICFI', servicerBic)])]),
    ]),
    ...notification.entries.map((entry) => reportEntryElement(entry, { currency, exponent })),
  ])
}
