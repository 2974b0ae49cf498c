import { element, serializeDocument, type XmlElement } from '../../shared/xml-text.js'
import { dateTime, identifier } from './iso-values.js'
import type { IsoStatus, PaymentInformationStatus, Pain002Version, StatusReason, TransactionStatus } from '../files-in/pain002.model.js'

/**
 * A bank's pain.002 customer payment status report (.001.10 or .001.03): what the simulated bank answers to
 * a pain.001 or pain.008 it read. The model is the one Kassa reads a report into (files-in/pain002.model.ts),
 * so what is written here reads back the same. Elements in the schemas' sequence order, which .001.10 and
 * .001.03 share for everything written here.
 */

/** A payment information's status; its transactions' statuses may be left out (PmtInfSts alone). */
export type PaymentInformationReport = Omit<PaymentInformationStatus, 'transactions'> & { transactions?: TransactionStatus[] }

export interface StatusReportDocument {
  version: Pain002Version
  messageId: string
  /** GrpHdr/CreDtTm, written in UTC to the second; now unless given. */
  creationDateTime?: Date
  /** OrgnlMsgId: the MsgId of the pain file answered. */
  originalMessageId: string
  /** OrgnlMsgNmId: pain.001.001.09 for a .001.10 report, pain.001.001.03 for a .001.03 one, unless given (a pain.008's). */
  originalMessageName?: string
  groupStatus?: IsoStatus
  groupReason?: StatusReason
  informations?: PaymentInformationReport[]
}

/**
 * The 2009 schema's statuses are closed lists (TransactionGroupStatus3Code, TransactionIndividualStatus3Code);
 * the 2019 one takes any code of the external list (ExternalPaymentGroupStatus1Code, …TransactionStatus1Code).
 */
const STATUSES_OF_2009: Record<'group' | 'transaction', readonly IsoStatus[]> = {
  group: ['ACTC', 'RCVD', 'PART', 'RJCT', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACWC'],
  transaction: ['ACTC', 'RJCT', 'PDNG', 'ACCP', 'ACSP', 'ACSC', 'ACWC'],
}

/** Max105Text: AddtlInf repeats, so a longer text is split between words into several (Kassa's reader joins them with a space). */
const ADDITIONAL_INFORMATION_LENGTH = 105

/**
 * @throws RangeError for a value the schema cannot carry: an id of more than 35 characters, a reason code of
 * more than 4, a status pain.002.001.03 does not have at that level.
 */
export function writePain002(report: StatusReportDocument): string {
  const status = (name: string, value: IsoStatus | undefined, level: 'group' | 'transaction') => {
    if (value !== undefined && report.version === 'pain.002.001.03' && !STATUSES_OF_2009[level].includes(value)) {
      throw new RangeError(`${name} ${value} is no status of pain.002.001.03 at this level`)
    }
    return value === undefined ? undefined : element(name, value)
  }
  const informations = (report.informations ?? []).map((information) =>
    element('OrgnlPmtInfAndSts', [
      identifier('OrgnlPmtInfId', information.id),
      status('PmtInfSts', information.status, 'group'),
      reason(information.reason),
      ...(information.transactions ?? []).map((transaction) =>
        element('TxInfAndSts', [identifier('OrgnlEndToEndId', transaction.endToEndId), status('TxSts', transaction.status, 'transaction'), reason(transaction.reason)]),
      ),
    ]),
  )
  const root = element('CstmrPmtStsRpt', [
    element('GrpHdr', [identifier('MsgId', report.messageId), dateTime('CreDtTm', report.creationDateTime ?? new Date())]),
    element('OrgnlGrpInfAndSts', [
      identifier('OrgnlMsgId', report.originalMessageId),
      identifier('OrgnlMsgNmId', report.originalMessageName ?? (report.version === 'pain.002.001.03' ? 'pain.001.001.03' : 'pain.001.001.09')),
      status('GrpSts', report.groupStatus, 'group'),
      reason(report.groupReason),
    ]),
    ...informations,
  ])
  return serializeDocument(element('Document', [root], { xmlns: `urn:iso:std:iso:20022:tech:xsd:${report.version}` }))
}


/** StsRsnInf: Rsn/Cd (ExternalStatusReason1Code, 1 to 4 characters) and the AddtlInf lines. */
function reason(value: StatusReason | undefined): XmlElement | undefined {
  if (value === undefined) return undefined
  if (!/^.{1,4}$/u.test(value.code)) throw new RangeError(`A status reason code has 1 to 4 characters: ${JSON.stringify(value.code)}`)
  const lines = additionalLines(value.additionalInformation ?? '')
  return element('StsRsnInf', [element('Rsn', [element('Cd', value.code)]), ...lines.map((line) => element('AddtlInf', line))])
}

function additionalLines(text: string): string[] {
  const lines: string[] = []
  for (const word of text.split(/\s+/).filter((part) => part !== '')) {
    const characters = [...word]
    const last = lines.at(-1)
    if (last !== undefined && [...last].length + 1 + characters.length <= ADDITIONAL_INFORMATION_LENGTH) lines[lines.length - 1] = `${last} ${word}`
    else for (let start = 0; start < characters.length; start += ADDITIONAL_INFORMATION_LENGTH) lines.push(characters.slice(start, start + ADDITIONAL_INFORMATION_LENGTH).join(''))
  }
  return lines
}
