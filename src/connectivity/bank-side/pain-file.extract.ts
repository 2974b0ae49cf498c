import { ApiError } from '../../http/errors.js'
import { compact } from '../../financial-data/statements/camt-extract.js'
import { all, child, isNode, text, type Node } from '../../financial-data/statements/camt-xml.js'
import { currencyExponent, parseDecimal } from '../../shared/money.js'
import type { MinorAmount } from '../bank-files/index.js'
import type { PaymentFileInformation, PaymentFileTransaction, ReadAddress, ReadOwnAccount, ReadParty } from './pain-file.model.js'

/**
 * The captured elements of a pain.001 or pain.008 (camt-xml.ts's trees) → the model of pain-file.model.ts.
 * The same paths serve all four versions but where they differ: ReqdExctnDt (an ISODate in .03, a choice of
 * Dt or DtTm in .09) and the agent's BIC (BIC in 2009, BICFI in 2019). Fields are named as in the message
 * ("PmtInf[2].CdtTrfTxInf[3].PmtId.EndToEndId", 1-based like XPath).
 */

export type PaymentMethod = PaymentFileInformation['method']

export function invalid(message: string, field: string): ApiError {
  return new ApiError('invalid_request', message, [{ code: 'invalid_payment_file', field, error: message }])
}

export function required(node: unknown, field: string, ...path: string[]): string {
  const value = text(node, ...path)
  if (value === undefined) throw invalid(`${[field, ...path].join('.')} is missing`, [field, ...path].join('.'))
  return value
}

/** Max15NumericText (NbOfTxs) as a number. */
export function count(node: unknown, field: string, name: string): number | undefined {
  const value = text(node, name)
  if (value === undefined) return undefined
  if (!/^\d{1,15}$/.test(value)) throw invalid(`${field}.${name} ${value} is no number of transactions`, `${field}.${name}`)
  return Number(value)
}

/** An ISODate, or the date of an ISODateTime. */
function isoDate(value: string, field: string): string {
  const date = /^\d{4}-\d{2}-\d{2}/.exec(value)?.[0]
  if (date === undefined) throw invalid(`${field} ${value} is no date`, field)
  return date
}

/** InstdAmt: its decimal text in exact minor units of its Ccy (money.ts's parseDecimal: no floating point). */
function amountOf(node: unknown, field: string): MinorAmount {
  const value = text(node)
  const currency = isNode(node) && typeof node['@Ccy'] === 'string' ? node['@Ccy'] : undefined
  if (value === undefined || currency === undefined) throw invalid(`${field} is missing, or its Ccy`, field)
  const exponent = currencyExponent(currency)
  if (exponent === undefined) throw invalid(`${field} has the currency ${currency}, which is no ISO 4217 currency`, field)
  const minor = /^\d+(\.\d+)?$/.test(value) ? parseDecimal(value, exponent) : undefined
  if (minor === undefined) throw invalid(`${field} ${value} is no amount of ${currency} (at most ${exponent} decimals, below 2^53 minor units)`, field)
  return { value: minor, currency }
}

function addressOf(node: unknown): ReadAddress | undefined {
  if (!isNode(node)) return undefined
  const lines = all(node, 'AdrLine').map((line) => text(line)).filter((line): line is string => line !== undefined)
  return compact<ReadAddress>({
    streetName: text(node, 'StrtNm'),
    buildingNumber: text(node, 'BldgNb'),
    postCode: text(node, 'PstCd'),
    townName: text(node, 'TwnNm'),
    country: text(node, 'Ctry'),
    lines: lines.length > 0 ? lines : undefined,
  })
}

/** A party (Dbtr, Cdtr), its account (…Acct) and its bank (…Agt). */
function partyOf(node: Node, role: 'Dbtr' | 'Cdtr'): ReadParty {
  return compact<ReadParty>({
    name: text(node, role, 'Nm'),
    address: addressOf(child(node, role, 'PstlAdr')),
    iban: text(node, `${role}Acct`, 'Id', 'IBAN'),
    bic: text(node, `${role}Agt`, 'FinInstnId', 'BICFI') ?? text(node, `${role}Agt`, 'FinInstnId', 'BIC'),
  })
}

/** A CdtTrfTxInf (method TRF: the creditor is the counterparty) or DrctDbtTxInf (DD: the debtor). */
export function transactionOf(node: unknown, field: string, method: PaymentMethod): PaymentFileTransaction {
  if (!isNode(node)) throw invalid(`${field} is empty`, field)
  const reference = child(node, 'RmtInf', 'Strd', 'CdtrRefInf')
  const referenceText = text(reference, 'Ref')
  const mandate = child(node, 'DrctDbtTx', 'MndtRltdInf')
  const unstructured = all(child(node, 'RmtInf'), 'Ustrd').map((line) => text(line)).filter((line) => line !== undefined)
  const signatureDate = text(mandate, 'DtOfSgntr')
  return {
    ...compact({ instructionId: text(node, 'PmtId', 'InstrId') }),
    endToEndId: required(node, field, 'PmtId', 'EndToEndId'),
    amount: method === 'TRF' ? amountOf(child(node, 'Amt', 'InstdAmt'), `${field}.Amt.InstdAmt`) : amountOf(child(node, 'InstdAmt'), `${field}.InstdAmt`),
    counterparty: partyOf(node, method === 'TRF' ? 'Cdtr' : 'Dbtr'),
    ...compact({
      unstructuredRemittance: unstructured.length > 0 ? unstructured.join(' ') : undefined,
      creditorReference: referenceText === undefined ? undefined : { reference: referenceText, ...compact({ issuer: text(reference, 'Tp', 'Issr') }) },
      purpose: text(node, 'Purp', 'Cd'),
      mandate:
        mandate === undefined
          ? undefined
          : { id: required(mandate, `${field}.DrctDbtTx.MndtRltdInf`, 'MndtId'), ...compact({ signatureDate: signatureDate && isoDate(signatureDate, `${field}.DrctDbtTx.MndtRltdInf.DtOfSgntr`) }) },
    }),
  }
}

/** A PmtInf from the elements before its transactions (`head`) and its transactions, read already. */
export function informationOf(head: Node, transactions: PaymentFileTransaction[], field: string, method: PaymentMethod): PaymentFileInformation {
  const id = required(head, field, 'PmtInfId')
  const written = required(head, field, 'PmtMtd')
  if (written !== method) throw invalid(`${field}.PmtMtd is ${written}: a ${method === 'TRF' ? 'pain.001' : 'pain.008'} is read with ${method} only`, `${field}.PmtMtd`)
  if (transactions.length === 0) throw invalid(`${field} has no transactions`, field)
  const dateField = method === 'TRF' ? 'ReqdExctnDt' : 'ReqdColltnDt'
  const date = text(head, dateField, 'Dt') ?? text(head, dateField, 'DtTm') ?? required(head, field, dateField)
  const own = method === 'TRF' ? 'Dbtr' : 'Cdtr'
  const ownAccount: ReadOwnAccount = { ...partyOf(head, own), iban: required(head, field, `${own}Acct`, 'Id', 'IBAN'), ...compact({ currency: text(head, `${own}Acct`, 'Ccy') }) }
  const batchBooking = text(head, 'BtchBookg')
  if (batchBooking !== undefined && !['true', 'false', '1', '0'].includes(batchBooking)) throw invalid(`${field}.BtchBookg ${batchBooking} is no indicator`, `${field}.BtchBookg`)
  return {
    paymentInformationId: id,
    method,
    ...compact({
      batchBooking: batchBooking === undefined ? undefined : batchBooking === 'true' || batchBooking === '1',
      numberOfTransactions: count(head, field, 'NbOfTxs'),
      controlSum: text(head, 'CtrlSum'),
    }),
    requestedDate: isoDate(date, `${field}.${dateField}`),
    ...compact({
      serviceLevel: text(head, 'PmtTpInf', 'SvcLvl', 'Cd'),
      localInstrument: text(head, 'PmtTpInf', 'LclInstrm', 'Cd'),
      sequenceType: text(head, 'PmtTpInf', 'SeqTp'),
      categoryPurpose: text(head, 'PmtTpInf', 'CtgyPurp', 'Cd'),
      chargeBearer: text(head, 'ChrgBr'),
      creditorSchemeId: text(head, 'CdtrSchmeId', 'Id', 'PrvtId', 'Othr', 'Id'),
    }),
    ownAccount,
    transactions,
  }
}
