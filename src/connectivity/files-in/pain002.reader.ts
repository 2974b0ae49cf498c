import { ApiError } from '../../http/errors.js'
import { all, text, type Node } from '../../financial-data/statements/camt-xml.js'
import { MemoryBudget } from '../../financial-data/statements/memory-budget.js'
import { XmlReader, type Disposition } from '../../financial-data/statements/xml-reader.js'
import { IsoDocumentHandler } from './message-type.js'
import { INBOUND_FILE_LIMIT, PAIN002_VERSIONS, type IsoStatus, type Pain002Version, type StatusReason, type StatusReport } from './pain002.model.js'

const ISO_STATUSES: readonly string[] = ['ACCP', 'ACSP', 'ACSC', 'ACWC', 'PDNG', 'RJCT', 'PART', 'RCVD', 'ACTC', 'ACWP', 'ACFC', 'ACCC']

function invalid(message: string, field: string): ApiError {
  return new ApiError('invalid_request', message, [{ code: 'invalid_status_report', field, error: message }])
}

function statusOf(node: unknown, name: string, field: string): IsoStatus | undefined {
  const value = text(node, name)
  if (value === undefined) return undefined
  if (!ISO_STATUSES.includes(value)) throw invalid(`${field}.${name} ${value} is no ISO 20022 payment status`, `${field}.${name}`)
  return value as IsoStatus
}

/** The first StsRsnInf: its Rsn/Cd (or Rsn/Prtry) and AddtlInf texts joined (NARR carries its reason there). */
function reasonOf(node: unknown): StatusReason | undefined {
  const [information] = all(node, 'StsRsnInf')
  if (information === undefined) return undefined
  const code = text(information, 'Rsn', 'Cd') ?? text(information, 'Rsn', 'Prtry')
  const additional = all(information, 'AddtlInf').filter((line): line is string => typeof line === 'string' && line !== '')
  if (code === undefined && additional.length === 0) return undefined
  return { code: code ?? 'NARR', ...(additional.length > 0 ? { additionalInformation: additional.join(' ') } : {}) }
}

function required(node: unknown, name: string, field: string): string {
  const value = text(node, name)
  if (value === undefined) throw invalid(`${field}.${name} is missing`, `${field}.${name}`)
  return value
}

/**
 * Reads a pain.002 customer payment status report (.001.10 or .001.03) with the statements' streaming
 * reader (xml-reader.ts: no DOCTYPE, size-limited tokens), keeping its group header, original group and
 * original payment informations. A document of another message type is refused once it proved well-formed.
 */
class Pain002Reader extends IsoDocumentHandler {
  private header: Node | undefined
  private group: Node | undefined
  private readonly informations: Node[] = []

  protected below(name: string): Disposition {
    if (this.depth === 1) return name === 'CstmrPmtStsRpt' && this.rootName === 'Document' ? 'stream' : 'skip'
    return ['GrpHdr', 'OrgnlGrpInfAndSts', 'OrgnlPmtInfAndSts'].includes(name) ? 'capture' : 'skip'
  }

  protected override take(name: string, value: unknown): void {
    if (name === 'GrpHdr') this.header = value as Node
    else if (name === 'OrgnlGrpInfAndSts') this.group = value as Node
    else this.informations.push(value as Node)
  }

  report(): StatusReport {
    const type = this.isoMessageType()
    if (!(PAIN002_VERSIONS as readonly string[]).includes(type)) {
      throw new ApiError(
        'unsupported_message',
        `The file is a ${type}: Kassa reads pain.002 status reports (${PAIN002_VERSIONS.join(', ')}) and camt.052, camt.053 and camt.054 (.001.02 to .001.08) from banks`,
      )
    }
    if (!this.header || !this.group) throw invalid('The status report has no GrpHdr or OrgnlGrpInfAndSts', 'CstmrPmtStsRpt')
    return {
      messageType: type as Pain002Version,
      messageId: required(this.header, 'MsgId', 'GrpHdr'),
      originalMessageId: required(this.group, 'OrgnlMsgId', 'OrgnlGrpInfAndSts'),
      ...optional('groupStatus', statusOf(this.group, 'GrpSts', 'OrgnlGrpInfAndSts')),
      ...optional('groupReason', reasonOf(this.group)),
      paymentInformations: this.informations.map((information, index) => {
        const field = `OrgnlPmtInfAndSts[${index + 1}]`
        return {
          id: required(information, 'OrgnlPmtInfId', field),
          ...optional('status', statusOf(information, 'PmtInfSts', field)),
          ...optional('reason', reasonOf(information)),
          transactions: all(information, 'TxInfAndSts').map((transaction, position) => {
            const at = `${field}.TxInfAndSts[${position + 1}]`
            return {
              endToEndId: required(transaction, 'OrgnlEndToEndId', at),
              ...optional('status', statusOf(transaction, 'TxSts', at)),
              ...optional('reason', reasonOf(transaction)),
            }
          }),
        }
      }),
    }
  }
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V }
}

/**
 * A pain.002 from its text. @throws ApiError invalid_request (400: malformed XML, a DOCTYPE, a missing
 * id or an unknown status), unsupported_message (422: another message), payload_too_large (413).
 */
export function readStatusReport(xml: string): StatusReport {
  const handler = new Pain002Reader()
  const budget = new MemoryBudget(INBOUND_FILE_LIMIT * 4, () => new ApiError('payload_too_large', 'The status report is too large to read'))
  const reader = new XmlReader(handler, budget)
  reader.write(xml)
  reader.end()
  return handler.report()
}
