import { formatMinorUnits } from '../../shared/money.js'
import { element, serializeDocument, type XmlElement } from '../../shared/xml-text.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import type { BankTransactionCode, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { BIC_PATTERN, IBAN_PATTERN, remittanceLines, schemaText, wholeReference } from './camt053-text.js'

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

/** camt.053.001.08 BkToCstmrStmt, its elements in the schema's sequence order. */
export function writeCamt053(statement: StatementDocument): string {
  const amount = (minor: number) => element('Amt', formatMinorUnits(Math.abs(minor), statement.exponent), { Ccy: statement.account.currency })
  const sign = (minor: number) => element('CdtDbtInd', minor < 0 ? 'DBIT' : 'CRDT')
  const balance = (code: 'OPBD' | 'CLBD', minor: number, date: string) =>
    element('Bal', [element('Tp', [element('CdOrPrtry', [element('Cd', code)])]), amount(minor), sign(minor), element('Dt', [element('Dt', date)])])
  const entry = (item: StatementEntry) =>
    element('Ntry', [
      amount(item.amount),
      sign(item.amount),
      element('Sts', [element('Cd', 'BOOK')]),
      element('BookgDt', [element('Dt', item.date)]),
      element('ValDt', [element('Dt', item.valueDate)]),
      optional(wholeReference(item.entryReference), (reference) => element('AcctSvcrRef', reference)),
      bankTransactionCode(item.bankTransactionCode),
      optional(transactionDetails(item), (details) => element('NtryDtls', details.map((parts) => element('TxDtls', parts)))),
      optional(schemaText(item.description, 500), (text) => element('AddtlNtryInf', text)),
    ])
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
            accountId(account.identifiers),
            element('Ccy', account.currency),
            optional(schemaText(account.name, 70), (name) => element('Nm', name)),
            optional(schemaText(account.ownerName, 140), (name) => element('Ownr', [element('Nm', name)])),
            optional(account.bic && BIC_PATTERN.test(account.bic) ? account.bic : undefined, (bic) =>
              element('Svcr', [element('FinInstnId', [element('BICFI', bic)])]),
            ),
          ]),
          balance('OPBD', statement.opening, statement.from),
          balance('CLBD', statement.closing, statement.to),
          ...statement.entries.map(entry),
        ]),
      ]),
    ],
    { xmlns: NAMESPACE },
  )
  return serializeDocument(document)
}

function optional<T>(value: T | undefined, write: (value: T) => XmlElement): XmlElement | undefined {
  return value === undefined ? undefined : write(value)
}

/** Id/IBAN when the account has a valid one, else Id/Othr/Id with its first other number (ISO 20022 AccountIdentification4Choice). */
function accountId(identifiers: readonly AccountIdentifier[]): XmlElement {
  const iban = identifiers.find((identifier) => identifier.type === 'IBAN' && IBAN_PATTERN.test(identifier.number))
  if (iban) return element('Id', [element('IBAN', iban.number)])
  const other = identifiers.map((identifier) => schemaText(identifier.number, 34)).find((number) => number !== undefined)
  return element('Id', [element('Othr', [element('Id', other ?? 'NOTPROVIDED')])])
}

/**
 * BkTxCd is mandatory in ReportEntry10: the ISO domain, family and sub-family when the transaction has all
 * three, else its proprietary code, else the proprietary placeholder NOTPROVIDED.
 */
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

/**
 * One TxDtls per end-to-end id (a batch booking lists each reconciled payment), or one without when there
 * is none; each with the counterparty (the debtor of money in, the creditor of money out) and the remittance.
 * Undefined when there is nothing to detail.
 */
function transactionDetails(item: StatementEntry): (XmlElement | undefined)[][] | undefined {
  const endToEndIds = item.endToEndIds.map(wholeReference).filter((id): id is string => id !== undefined)
  const lines = remittanceLines(item.reference)
  const details = (endToEndId: string | undefined) => [
    optional(endToEndId, (id) => element('Refs', [element('EndToEndId', id)])),
    relatedParties(item.counterparty, item.amount < 0 ? 'Cdtr' : 'Dbtr'),
    lines.length > 0 ? element('RmtInf', lines.map((line) => element('Ustrd', line))) : undefined,
  ]
  if (endToEndIds.length > 0) return endToEndIds.map(details)
  const single = details(undefined)
  return single.some((part) => part !== undefined) ? [single] : undefined
}

function relatedParties(counterparty: TransactionCounterparty | undefined, role: 'Dbtr' | 'Cdtr'): XmlElement | undefined {
  const name = schemaText(counterparty?.name, 140)
  const identifiers = counterparty?.account?.identifiers ?? []
  const hasAccount = identifiers.some((identifier) => schemaText(identifier.number, 34) !== undefined)
  if (name === undefined && !hasAccount) return undefined
  return element('RltdPties', [
    optional(name, (text) => element(role, [element('Pty', [element('Nm', text)])])),
    hasAccount ? element(`${role}Acct`, [accountId(identifiers)]) : undefined,
  ])
}
