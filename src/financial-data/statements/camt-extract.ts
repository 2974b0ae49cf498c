import type {
  CamtAmount,
  CamtBalance,
  CamtBankTransactionCode,
  CamtEntry,
  CamtParty,
  CamtStatement,
  CamtTransactionDetails,
} from './camt-model.js'
import { all, child, isNode, text, type Node } from './camt-xml.js'

/**
 * The elements of an ISO 20022 bank-to-customer message → the typed model. Extraction only: values stay
 * the strings the bank wrote (amounts as decimal text, codes as given); the rules — required fields,
 * exact minor units, currencies, sums — are statement.validation.ts's. Every node carries its `path`
 * in the message ("Stmt[1].Ntry[3]", 1-based like XPath) and its character `offset`, so an error can
 * say where it is (see `CamtMessage.lineOf`).
 */

function amountOf(node: unknown): CamtAmount | undefined {
  const value = text(node)
  if (value === undefined) return undefined
  const currency = isNode(node) && typeof node['@Ccy'] === 'string' ? node['@Ccy'] : undefined
  return { value, ...(currency !== undefined ? { currency } : {}) }
}

/** An xs:date with its time zone (2017-04-01+02:00, 2017-04-01Z; XML Schema 1.1 Part 2 §3.3.9). */
const ZONED_DATE = /^(\d{4}-\d{2}-\d{2})(?:Z|[+-]\d{2}:\d{2})$/

/**
 * The bank's local date, which is what a booking date is: Dt as written — a time zone, which xs:date
 * allows and Swiss banks send, says where the date is local and does not shift it — or the date part
 * of DtTm (its offset and fractional seconds alike). Text that is no date stays as written, for the
 * rules to quote.
 */
function localDate(value: string | undefined, dateTime: boolean): string | undefined {
  if (value === undefined) return undefined
  return dateTime ? value.slice(0, 10) : (ZONED_DATE.exec(value)?.[1] ?? value)
}

/** A DateAndDateTimeChoice: Dt or DtTm. */
function dateOf(node: unknown): string | undefined {
  return localDate(text(node, 'Dt'), false) ?? localDate(text(node, 'DtTm'), true)
}

/**
 * The fields that are defined: absent elements stay absent in the model. A copy rather than `delete`,
 * which would turn every model object into a slower and larger dictionary (they are kept by the plan).
 */
export function compact<T extends object>(value: T): T {
  const result = {} as T
  for (const key in value) if (value[key] !== undefined) result[key] = value[key]
  return result
}

/** A party (.02–.07: Nm directly; .08: Pty/Nm or Agt), its account and its agent's BIC. */
function partyOf(party: unknown, account: unknown, agent: unknown): CamtParty | undefined {
  const result = compact<CamtParty>({
    name: text(party, 'Nm') ?? text(party, 'Pty', 'Nm') ?? text(party, 'Agt', 'FinInstnId', 'Nm'),
    iban: text(account, 'Id', 'IBAN'),
    otherAccountId: text(account, 'Id', 'Othr', 'Id'),
    bic: text(agent, 'FinInstnId', 'BIC') ?? text(agent, 'FinInstnId', 'BICFI'),
  })
  return Object.keys(result).length > 0 ? result : undefined
}

function bankTransactionCodeOf(node: unknown): CamtBankTransactionCode | undefined {
  if (!isNode(node)) return undefined
  const proprietaryCode = text(node, 'Prtry', 'Cd')
  const result = compact<CamtBankTransactionCode>({
    domain: text(node, 'Domn', 'Cd'),
    family: text(node, 'Domn', 'Fmly', 'Cd'),
    subfamily: text(node, 'Domn', 'Fmly', 'SubFmlyCd'),
    proprietary: proprietaryCode !== undefined ? compact({ code: proprietaryCode, issuer: text(node, 'Prtry', 'Issr') }) : undefined,
  })
  return Object.keys(result).length > 0 ? result : undefined
}

function transactionDetailsOf(node: unknown, path: string): CamtTransactionDetails {
  const parties = child(node, 'RltdPties')
  const agents = child(node, 'RltdAgts')
  const remittance = all(node, 'RmtInf')
  const returnCode = text(node, 'RtrInf', 'Rsn', 'Cd') ?? text(node, 'RtrInf', 'Rsn', 'Prtry')
  const endToEndId = text(node, 'Refs', 'EndToEndId')
  return {
    path,
    ...compact({
      amount: amountOf(child(node, 'Amt')) ?? amountOf(child(node, 'AmtDtls', 'TxAmt', 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      // NOTPROVIDED is the scheme's placeholder for "the debtor gave none".
      endToEndId: endToEndId === 'NOTPROVIDED' ? undefined : endToEndId,
      accountServicerReference: text(node, 'Refs', 'AcctSvcrRef'),
      mandateId: text(node, 'Refs', 'MndtId'),
      debtor: partyOf(child(parties, 'Dbtr'), child(parties, 'DbtrAcct'), child(agents, 'DbtrAgt')),
      creditor: partyOf(child(parties, 'Cdtr'), child(parties, 'CdtrAcct'), child(agents, 'CdtrAgt')),
      additionalInfo: text(node, 'AddtlTxInf'),
      returnReason: returnCode !== undefined ? compact({ code: returnCode, additionalInfo: text(node, 'RtrInf', 'AddtlInf') }) : undefined,
    }),
    unstructured: remittance.flatMap((info) => all(info, 'Ustrd').map((line) => text(line)).filter((line): line is string => line !== undefined)),
    structuredReferences: remittance.flatMap((info) =>
      all(info, 'Strd')
        .map((structured) => text(structured, 'CdtrRefInf', 'Ref'))
        .filter((ref): ref is string => ref !== undefined),
    ),
  }
}

function statusOf(node: unknown): string | undefined {
  const status = child(node, 'Sts')
  return isNode(status) ? (text(status, 'Cd') ?? text(status, 'Prtry') ?? text(status)) : text(status)
}

export function entryOf(node: unknown, path: string, offset: number): CamtEntry {
  const entryDetails = all(node, 'NtryDtls')
  const details = entryDetails.flatMap((group, groupIndex) => {
    const groupPath = entryDetails.length > 1 ? `${path}.NtryDtls[${groupIndex + 1}]` : `${path}.NtryDtls`
    return all(group, 'TxDtls').map((transaction, index) => transactionDetailsOf(transaction, `${groupPath}.TxDtls[${index + 1}]`))
  })
  const reversal = text(node, 'RvslInd')
  return {
    path,
    offset,
    ...compact({
      entryReference: text(node, 'NtryRef'),
      accountServicerReference: text(node, 'AcctSvcrRef'),
      amount: amountOf(child(node, 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      status: statusOf(node),
      bookingDate: dateOf(child(node, 'BookgDt')),
      valueDate: dateOf(child(node, 'ValDt')),
      bankTransactionCode: bankTransactionCodeOf(child(node, 'BkTxCd')),
      additionalInfo: all(node, 'AddtlNtryInf').map((info) => text(info)).filter(Boolean).join(' ') || undefined,
      batchPaymentInformationId: entryDetails.map((group) => text(group, 'Btch', 'PmtInfId')).find(Boolean),
    }),
    reversal: reversal === 'true' || reversal === '1',
    details,
  }
}

export function balanceOf(node: unknown, path: string, offset: number): CamtBalance {
  return {
    path,
    offset,
    ...compact({
      code: text(node, 'Tp', 'CdOrPrtry', 'Cd') ?? text(node, 'Tp', 'CdOrPrtry', 'Prtry'),
      amount: amountOf(child(node, 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      date: dateOf(child(node, 'Dt')),
    }),
  }
}

/** The head of a statement (report, notification): the elements that come before its balances and entries. */
export function statementHeadOf(head: Node, path: string, offset: number): Omit<CamtStatement, 'balances' | 'entries'> {
  const period = compact({ from: localDate(text(head, 'FrToDt', 'FrDtTm'), true), to: localDate(text(head, 'FrToDt', 'ToDtTm'), true) })
  return {
    path,
    offset,
    ...compact({
      id: text(head, 'Id'),
      electronicSequenceNumber: text(head, 'ElctrncSeqNb'),
      creationDate: localDate(text(head, 'CreDtTm'), true),
      period: Object.keys(period).length > 0 ? period : undefined,
    }),
    account: compact({ iban: text(head, 'Acct', 'Id', 'IBAN'), otherId: text(head, 'Acct', 'Id', 'Othr', 'Id'), currency: text(head, 'Acct', 'Ccy') }),
  }
}
