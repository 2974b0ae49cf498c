import { formatMinorUnits } from '../../shared/money.js'
import { element, serializeDocument } from '../../shared/xml-text.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import type { BankTransactionCode, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { BIC_PATTERN, IBAN_PATTERN, schemaText, wholeReference } from './camt053-text.js'
import {
  accountIdentification,
  optional,
  reportEntryElement,
  type CreditDebit,
  type EntryAccount,
  type EntryCurrency,
  type EntryParty,
  type EntryTransaction,
  type ReportEntry,
} from './report-entry.js'

/** What a camt.053.001.08 statement of one account says, in Kassa's terms; amounts in minor units. */
export interface StatementDocument {
  messageId: string
  statementId: string
  created: string
  from: string
  to: string
  account: {
    identifiers: AccountIdentifier[]
    currency: string
    name: string
    ownerName?: string
    bic?: string
  }
  /** ISO 4217 minor digits of the account's currency. */
  exponent: number
  /** The booked balance at the end of the day before `from` (OPBD, dated `from`) and at the end of `to` (CLBD). */
  opening: number
  closing: number
  entries: StatementEntry[]
}

export interface StatementEntry {
  /** Signed: negative is a debit. */
  amount: number
  date: string
  valueDate: string
  entryReference: string
  description: string
  reference?: string
  /** The transaction's own end-to-end id when no payment is reconciled to it, else those of the payments. */
  endToEndIds: string[]
  counterparty?: TransactionCounterparty
  bankTransactionCode?: BankTransactionCode
}

const NAMESPACE = 'urn:iso:std:iso:20022:tech:xsd:camt.053.001.08'

/** camt.053.001.08 BkToCstmrStmt, its elements in the schema's sequence order; the entries are report-entry.ts's. */
export function writeCamt053(statement: StatementDocument): string {
  const money: EntryCurrency = { currency: statement.account.currency, exponent: statement.exponent }
  const amount = (minor: number) => element('Amt', formatMinorUnits(Math.abs(minor), statement.exponent), { Ccy: statement.account.currency })
  const balance = (code: 'OPBD' | 'CLBD', minor: number, date: string) =>
    element('Bal', [element('Tp', [element('CdOrPrtry', [element('Cd', code)])]), amount(minor), element('CdtDbtInd', creditDebit(minor)), element('Dt', [element('Dt', date)])])
  const { account } = statement
  const document = element(
    'Document',
    [
      element('BkToCstmrStmt', [
        element('GrpHdr', [element('MsgId', statement.messageId), element('CreDtTm', statement.created)]),
        element('Stmt', [
          element('Id', statement.statementId),
          element('CreDtTm', statement.created),
          element('FrToDt', [element('FrDtTm', `${statement.from}T00:00:00`), element('ToDtTm', `${statement.to}T23:59:59`)]),
          element('Acct', [
            accountIdentification(accountOf(account.identifiers) ?? { other: 'NOTPROVIDED' })!,
            element('Ccy', account.currency),
            optional(schemaText(account.name, 70), (name) => element('Nm', name)),
            optional(schemaText(account.ownerName, 140), (name) => element('Ownr', [element('Nm', name)])),
            optional(account.bic && BIC_PATTERN.test(account.bic) ? account.bic : undefined, (bic) =>
              element('Svcr', [element('FinInstnId', [element('BICFI', bic)])]),
            ),
          ]),
          balance('OPBD', statement.opening, statement.from),
          balance('CLBD', statement.closing, statement.to),
          ...statement.entries.map((entry) => reportEntryElement(reportEntry(entry), money)),
        ]),
      ]),
    ],
    { xmlns: NAMESPACE },
  )
  return serializeDocument(document)
}

function creditDebit(minor: number): CreditDebit {
  return minor < 0 ? 'DBIT' : 'CRDT'
}

/**
 * A booked transaction as a ReportEntry10: one TxDtls per end-to-end id (a batch booking lists each
 * reconciled payment), or one without when there is none; each with the counterparty (the debtor of money
 * in, the creditor of money out) and the remittance.
 */
function reportEntry(item: StatementEntry): ReportEntry {
  const endToEndIds = item.endToEndIds.map(wholeReference).filter((id): id is string => id !== undefined)
  const counterparty = partyOf(item.counterparty)
  const side = item.amount < 0 ? { creditor: counterparty } : { debtor: counterparty }
  const details = (endToEndId: string | undefined): EntryTransaction => ({
    ...(endToEndId === undefined ? {} : { references: { endToEndId } }),
    ...side,
    ...(item.reference === undefined ? {} : { remittance: item.reference }),
  })
  return {
    amount: Math.abs(item.amount),
    creditDebit: creditDebit(item.amount),
    bookingDate: item.date,
    valueDate: item.valueDate,
    accountServicerReference: item.entryReference,
    ...(item.bankTransactionCode === undefined ? {} : { bankTransactionCode: item.bankTransactionCode }),
    transactions: endToEndIds.length > 0 ? endToEndIds.map(details) : [details(undefined)],
    additionalInformation: item.description,
  }
}

function partyOf(counterparty: TransactionCounterparty | undefined): EntryParty {
  const account = accountOf(counterparty?.account?.identifiers ?? [])
  return { ...(counterparty?.name === undefined ? {} : { name: counterparty.name }), ...(account === undefined ? {} : { account }) }
}

/** The account's valid IBAN, else its first other number the schema can carry (ISO 20022 AccountIdentification4Choice). */
function accountOf(identifiers: readonly AccountIdentifier[]): EntryAccount | undefined {
  const iban = identifiers.find((identifier) => identifier.type === 'IBAN' && IBAN_PATTERN.test(identifier.number))
  if (iban) return { iban: iban.number }
  const other = identifiers.map((identifier) => schemaText(identifier.number, 34)).find((number) => number !== undefined)
  return other === undefined ? undefined : { other }
}
