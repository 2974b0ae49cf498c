import { element, type XmlElement } from '../../shared/xml-text.js'
import { BIC_PATTERN, IBAN_PATTERN, remittanceLines, schemaText, wholeReference } from './camt053-text.js'

/**
 * The transaction details of a booked entry (NtryDtls/TxDtls, ISO 20022 EntryTransaction10), shared by the
 * camt.053.001.08 and camt.054.001.08 writers through report-entry.ts, and the account identification both
 * write for their account too. Texts are fitted to the schema (camt053-text.ts); a reference that does not
 * fit is left out rather than cut, since a cut one would name another payment.
 */

export type CreditDebit = 'CRDT' | 'DBIT'

/** An ActiveOrHistoricCurrencyAndAmount element (Amt, TtlAmt) of minor units in the entry's currency. */
export type AmountWriter = (name: string, minor: number) => XmlElement

/** AccountIdentification4Choice: an IBAN (written as Othr/Id when it fails the schema's pattern) or another number. */
export type EntryAccount = { iban: string } | { other: string }

/** A party of a transaction (Party40Choice/Pty), its account and its bank (RltdAgts). */
export interface EntryParty {
  name?: string
  account?: EntryAccount
  bic?: string
}

/** TransactionReferences6: the ids of the instruction the booking carries out. */
export interface EntryReferences {
  messageId?: string
  accountServicerReference?: string
  paymentInformationId?: string
  instructionId?: string
  endToEndId?: string
  mandateId?: string
}

/** RtrInf of a returned payment: Rsn/Cd (an ExternalReturnReason1Code: AC04, MD06, …) and AddtlInf. */
export interface ReturnReason {
  code: string
  additionalInformation?: string
}

/** EntryTransaction10 (TxDtls); a transaction with nothing to say is left out. */
export interface EntryTransaction {
  references?: EntryReferences
  /** Minor units, not negative. */
  amount?: number
  creditDebit?: CreditDebit
  debtor?: EntryParty
  creditor?: EntryParty
  /** Unstructured remittance: as many Ustrd lines of 140 characters as it needs. */
  remittance?: string
  returnReason?: ReturnReason
}

export function optional<T>(value: T | undefined, write: (value: T) => XmlElement): XmlElement | undefined {
  return value === undefined ? undefined : write(value)
}

/** TxDtls in EntryTransaction10's sequence order, or undefined when it has nothing to say. */
export function transactionDetails(transaction: EntryTransaction, amount: AmountWriter): XmlElement | undefined {
  const references = transaction.references ?? {}
  const reference = (name: string, value: string | undefined) => optional(wholeReference(value), (id) => element(name, id))
  const referenceElements = [
    reference('MsgId', references.messageId),
    reference('AcctSvcrRef', references.accountServicerReference),
    reference('PmtInfId', references.paymentInformationId),
    reference('InstrId', references.instructionId),
    reference('EndToEndId', references.endToEndId),
    reference('MndtId', references.mandateId),
  ].filter((part) => part !== undefined)
  const lines = remittanceLines(transaction.remittance)
  const parts = [
    referenceElements.length > 0 ? element('Refs', referenceElements) : undefined,
    optional(transaction.amount, (minor) => amount('Amt', minor)),
    optional(transaction.creditDebit, (sign) => element('CdtDbtInd', sign)),
    relatedParties(transaction),
    relatedAgents(transaction),
    lines.length > 0 ? element('RmtInf', lines.map((line) => element('Ustrd', line))) : undefined,
    optional(transaction.returnReason, returnInformation),
  ]
  return parts.some((part) => part !== undefined) ? element('TxDtls', parts) : undefined
}

/** TransactionParties6: Dbtr, DbtrAcct, then Cdtr, CdtrAcct. */
function relatedParties({ debtor, creditor }: EntryTransaction): XmlElement | undefined {
  const party = (role: 'Dbtr' | 'Cdtr', holder: EntryParty | undefined) => [
    optional(schemaText(holder?.name, 140), (name) => element(role, [element('Pty', [element('Nm', name)])])),
    optional(holder?.account && accountIdentification(holder.account), (id) => element(`${role}Acct`, [id])),
  ]
  const parts = [...party('Dbtr', debtor), ...party('Cdtr', creditor)].filter((part) => part !== undefined)
  return parts.length > 0 ? element('RltdPties', parts) : undefined
}

/** TransactionAgents5: DbtrAgt before CdtrAgt, each by its BIC when the BIC fits the schema. */
function relatedAgents({ debtor, creditor }: EntryTransaction): XmlElement | undefined {
  const agent = (role: 'DbtrAgt' | 'CdtrAgt', bic: string | undefined) =>
    optional(bic !== undefined && BIC_PATTERN.test(bic) ? bic : undefined, (value) => element(role, [element('FinInstnId', [element('BICFI', value)])]))
  const parts = [agent('DbtrAgt', debtor?.bic), agent('CdtrAgt', creditor?.bic)].filter((part) => part !== undefined)
  return parts.length > 0 ? element('RltdAgts', parts) : undefined
}

/** PaymentReturnReason5: Rsn/Cd (ExternalReturnReason1Code, at most 4 characters; a longer code as Rsn/Prtry) and AddtlInf (Max105Text). */
function returnInformation(reason: ReturnReason): XmlElement {
  const code = schemaText(reason.code, 35) ?? 'NARR'
  return element('RtrInf', [
    element('Rsn', [[...code].length <= 4 ? element('Cd', code) : element('Prtry', code)]),
    optional(schemaText(reason.additionalInformation, 105), (text) => element('AddtlInf', text)),
  ])
}

/** AccountIdentification4Choice; undefined when the number is nothing the schema can carry. */
export function accountIdentification(account: EntryAccount): XmlElement | undefined {
  if ('iban' in account && IBAN_PATTERN.test(account.iban)) return element('Id', [element('IBAN', account.iban)])
  const other = schemaText('iban' in account ? account.iban : account.other, 34)
  return optional(other, (number) => element('Id', [element('Othr', [element('Id', number)])]))
}
