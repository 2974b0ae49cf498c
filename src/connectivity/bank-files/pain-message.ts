import { BankFileError, FieldChecks } from './bank-file.rules.js'
import type { BankFile, MessageHeader, PainVersion, PaymentInformationCommon, SequenceType } from './bank-file.types.js'
import { CHARGE_BEARERS, SEQUENCE_TYPES } from './bank-file.types.js'
import { decimalSum, decimalText, MAX_TOTAL_DIGITS, totalDigits, type DecimalAmount } from './decimal-amount.js'
import { initiatingParty, type WriteContext } from './pain-parties.js'
import type { Counted } from './pain-transaction.js'
import { painDialect } from './pain-versions.js'
import { element, serializeDocument, type XmlElement } from '../../shared/xml-text.js'

/**
 * The frame of a pain.001 or pain.008 message: Document, group header, payment informations. The two
 * writers give what is their own (the payment information's dates, parties and transactions); the counts
 * and control sums are computed here, from exactly the amounts written, for the message and for each
 * payment information.
 */

/** A payment information's element and the amounts of its transactions. */
export interface WrittenInformation {
  element: XmlElement
  amounts: DecimalAmount[]
}

/** Whatever a payment information's transactions are, the frame only needs to know there are some. */
type Information = PaymentInformationCommon & { transactions: readonly unknown[] }

/**
 * @throws BankFileError listing every value that the schema (or the EPC rule the writer keeps) would refuse;
 * nothing is written then.
 */
export function writePainMessage<I extends Information>(
  version: PainVersion,
  rootElement: 'CstmrCdtTrfInitn' | 'CstmrDrctDbtInitn',
  message: MessageHeader,
  paymentInformation: readonly I[],
  writeInformation: (context: WriteContext, information: I, field: string) => WrittenInformation,
): BankFile {
  const context: WriteContext = { dialect: painDialect(version), checks: new FieldChecks() }
  const { checks } = context
  if (paymentInformation.length === 0) checks.fail('paymentInformation', 'must hold at least one payment information')
  const written = paymentInformation.map((information, index) => {
    const field = `paymentInformation.${index}`
    if (information.transactions.length === 0) checks.fail(`${field}.transactions`, 'must hold at least one transaction')
    checks.unique('payment information id', `${field}.paymentInformationId`, information.paymentInformationId)
    return writeInformation(context, information, field)
  })
  const amounts = written.flatMap((information) => information.amounts)
  const controlSum = controlSumText(context, 'paymentInformation', amounts)
  const groupHeader = element('GrpHdr', [
    element('MsgId', checks.identifier('message.messageId', message.messageId)),
    element('CreDtTm', checks.dateTime('message.creationDateTime', message.creationDateTime)),
    element('NbOfTxs', String(amounts.length)),
    element('CtrlSum', controlSum),
    initiatingParty(context, 'message.initiatingParty', message.initiatingParty),
  ])
  if (checks.problems.length > 0) throw new BankFileError(version, checks.problems)
  const root = element(rootElement, [groupHeader, ...written.map((information) => information.element)])
  return {
    messageType: version,
    messageId: message.messageId,
    numberOfTransactions: amounts.length,
    controlSum,
    xml: serializeDocument(element('Document', [root], { xmlns: context.dialect.namespace })),
  }
}

/**
 * A PmtInf from its transactions: PmtInfId, PmtMtd, BtchBookg, NbOfTxs, CtrlSum and PmtTpInf, then what
 * the writer gives (date, own account, ChrgBr…), then the transactions: the schema's order in all four versions.
 */
export function paymentInformationElement(
  context: WriteContext,
  field: string,
  information: PaymentInformationCommon & { localInstrument?: string; sequenceType?: SequenceType },
  method: 'TRF' | 'DD',
  body: (XmlElement | undefined)[],
  transactions: readonly Counted[],
): WrittenInformation {
  const { checks } = context
  const amounts = transactions.map((transaction) => transaction.amount)
  const { localInstrument, sequenceType, categoryPurpose } = information
  return {
    amounts,
    element: element('PmtInf', [
      element('PmtInfId', checks.identifier(`${field}.paymentInformationId`, information.paymentInformationId)),
      element('PmtMtd', method),
      element('BtchBookg', String(information.batchBooking)),
      element('NbOfTxs', String(transactions.length)),
      element('CtrlSum', controlSumText(context, `${field}.transactions`, amounts)),
      element('PmtTpInf', [
        element('SvcLvl', [element('Cd', checks.code(`${field}.serviceLevel`, information.serviceLevel ?? 'SEPA', 4))]),
        localInstrument === undefined ? undefined : element('LclInstrm', [element('Cd', checks.code(`${field}.localInstrument`, localInstrument, 35))]),
        sequenceType === undefined ? undefined : element('SeqTp', checks.oneOf(`${field}.sequenceType`, sequenceType, SEQUENCE_TYPES)),
        categoryPurpose === undefined ? undefined : element('CtgyPurp', [element('Cd', checks.code(`${field}.categoryPurpose`, categoryPurpose, 4))]),
      ]),
      ...body,
      ...transactions.map((transaction) => transaction.element),
    ]),
  }
}

/** ChrgBr: SLEV (follow the scheme's rules) unless given; the only value SEPA allows. */
export function chargeBearer(context: WriteContext, field: string, information: PaymentInformationCommon): XmlElement {
  return element('ChrgBr', context.checks.oneOf(`${field}.chargeBearer`, information.chargeBearer ?? 'SLEV', CHARGE_BEARERS))
}

/** DecimalNumber: at most 18 digits, so a sum of many large amounts can be too large for a CtrlSum. */
function controlSumText(context: WriteContext, field: string, amounts: readonly DecimalAmount[]): string {
  const sum = decimalSum(amounts)
  if (totalDigits(sum) > MAX_TOTAL_DIGITS) context.checks.fail(field, `amounts add up to more than the ${MAX_TOTAL_DIGITS} digits a CtrlSum can hold`)
  return decimalText(sum)
}
