import { ApiError } from '../../http/errors.js'
import { compact } from '../../financial-data/statements/camt-extract.js'
import { text, type Node } from '../../financial-data/statements/camt-xml.js'
import { MemoryBudget } from '../../financial-data/statements/memory-budget.js'
import { XmlReader, type Disposition } from '../../financial-data/statements/xml-reader.js'
import { PAIN_001_VERSIONS, PAIN_008_VERSIONS, type PainVersion } from '../bank-files/index.js'
import { IsoDocumentHandler } from '../files-in/message-type.js'
import { INBOUND_FILE_LIMIT } from '../files-in/pain002.model.js'
import { count, informationOf, invalid, required, transactionOf, type PaymentMethod } from './pain-file.extract.js'
import type { PaymentFile, PaymentFileInformation, PaymentFileTransaction } from './pain-file.model.js'

/** Each message's body and transaction element, and the payment method its payment informations have. */
const MESSAGES: Record<'pain.001' | 'pain.008', { body: string; transaction: string; method: PaymentMethod }> = {
  'pain.001': { body: 'CstmrCdtTrfInitn', transaction: 'CdtTrfTxInf', method: 'TRF' },
  'pain.008': { body: 'CstmrDrctDbtInitn', transaction: 'DrctDbtTxInf', method: 'DD' },
}

const VERSIONS: readonly string[] = [...PAIN_001_VERSIONS, ...PAIN_008_VERSIONS]

/**
 * Reads a pain.001 or pain.008 as a bank does, with the statements' streaming reader (xml-reader.ts: no
 * DOCTYPE, size-limited tokens): the group header is captured whole; each PmtInf is streamed, the elements
 * before its transactions captured into its head and each transaction read into the model as it completes,
 * so that no more than one transaction's tree is held at a time. A document of another message type is
 * refused once it proved well-formed.
 */
class PainFileReader extends IsoDocumentHandler {
  private header: Node | undefined
  private information: { head: Node; transactions: PaymentFileTransaction[] } | undefined
  private readonly informations: PaymentFileInformation[] = []

  private get message() {
    return VERSIONS.includes(this.messageType ?? '') ? MESSAGES[this.messageType!.slice(0, 8) as keyof typeof MESSAGES] : undefined
  }

  private get field(): string {
    return `PmtInf[${this.informations.length + 1}]`
  }

  protected below(name: string): Disposition {
    if (this.depth === 1) return this.rootName === 'Document' && name === this.message?.body ? 'stream' : 'skip'
    if (this.depth === 2 && name === 'PmtInf') {
      this.information = { head: {}, transactions: [] }
      return 'stream'
    }
    // The group header, and every child of a PmtInf; __proto__ would set the head's prototype (no ISO element is named so).
    return (this.depth === 2 && name === 'GrpHdr') || (this.depth === 3 && name !== '__proto__') ? 'capture' : 'skip'
  }

  protected override take(name: string, value: unknown): void {
    const information = this.information
    if (information === undefined) this.header = value as Node
    else if (name === this.message!.transaction) {
      information.transactions.push(transactionOf(value, `${this.field}.${name}[${information.transactions.length + 1}]`, this.message!.method))
    } else information.head[name] ??= value
  }

  protected override closed(name: string): void {
    if (name !== 'PmtInf' || this.information === undefined) return
    this.informations.push(informationOf(this.information.head, this.information.transactions, this.field, this.message!.method))
    this.information = undefined
  }

  file(): PaymentFile {
    const type = this.isoMessageType()
    if (this.message === undefined) throw new ApiError('unsupported_message', `The file is a ${type}: the bank reads ${VERSIONS.join(', ')}`)
    const header = this.header
    if (header === undefined || this.informations.length === 0) throw invalid(`The ${type} has no ${this.message.body} with a GrpHdr and a PmtInf`, this.message.body)
    const numberOfTransactions = count(header, 'GrpHdr', 'NbOfTxs')
    if (numberOfTransactions === undefined) throw invalid('GrpHdr.NbOfTxs is missing', 'GrpHdr.NbOfTxs')
    return {
      messageType: type as PainVersion,
      messageId: required(header, 'GrpHdr', 'MsgId'),
      creationDateTime: required(header, 'GrpHdr', 'CreDtTm'),
      numberOfTransactions,
      ...compact({ controlSum: text(header, 'CtrlSum'), initiatingPartyName: text(header, 'InitgPty', 'Nm') }),
      paymentInformations: this.informations,
    }
  }
}

/**
 * A pain.001.001.09/.03 or pain.008.001.08/.02 from its text.
 * @throws ApiError invalid_request (400: malformed XML, a DOCTYPE, a missing id, an amount that is not exact in
 * its currency), unsupported_message (422: another message or version), payload_too_large (413).
 */
export function readPaymentFile(xml: string): PaymentFile {
  const handler = new PainFileReader()
  const budget = new MemoryBudget(INBOUND_FILE_LIMIT * 4, () => new ApiError('payload_too_large', 'The payment file is too large to read'))
  const reader = new XmlReader(handler, budget)
  reader.write(xml)
  reader.end()
  return handler.file()
}
