import { ApiError } from '../../http/errors.js'
import { MemoryBudget } from '../../financial-data/statements/memory-budget.js'
import { XmlReader, type Disposition, type XmlHandler } from '../../financial-data/statements/xml-reader.js'
import { INBOUND_FILE_LIMIT } from './pain002.model.js'

const ISO_NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:(.+)$/

/** The message type a root element declares by its ISO 20022 namespace, e.g. pain.002.001.10. */
function messageTypeOf(attributes: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    const match = /^xmlns(:|$)/.test(name) ? ISO_NAMESPACE.exec(value) : null
    if (match) return match[1]
  }
  return undefined
}

/**
 * A handler of an ISO 20022 document for the statements' streaming reader (xml-reader.ts): it keeps the root's
 * name and the message type its namespace declares, and the depth of the elements open around the reader —
 * skipped ones are neither opened nor closed to the handler. What happens below the root is the subclass's.
 */
export abstract class IsoDocumentHandler implements XmlHandler {
  protected depth = 0
  protected rootName = ''
  protected messageType: string | undefined

  open(name: string, attributes: Readonly<Record<string, string>>): Disposition {
    let disposition: Disposition = 'stream'
    if (this.depth === 0) {
      this.rootName = name
      this.messageType = messageTypeOf(attributes)
    } else disposition = this.below(name)
    if (disposition !== 'skip') this.depth += 1
    return disposition
  }

  captured(name: string, value: unknown): void {
    this.depth -= 1
    this.take(name, value)
  }

  close(name: string): void {
    this.depth -= 1
    this.closed(name)
  }

  /** What to do with an element below the root, opening at `depth`. */
  protected abstract below(name: string): Disposition

  /** A captured element is complete. */
  protected take(_name: string, _value: unknown): void {}

  /** A streamed element below the root closed. */
  protected closed(_name: string): void {}

  /** @returns the message type. @throws ApiError unsupported_message (422) when the document is no ISO 20022 Document. */
  protected isoMessageType(): string {
    if (this.rootName !== 'Document' || this.messageType === undefined) {
      throw new ApiError('unsupported_message', 'The file is no ISO 20022 message: its root must be a Document in an urn:iso:std:iso:20022:tech:xsd namespace')
    }
    return this.messageType
  }
}

/** Reads nothing below the root: the message type alone. */
class RootReader extends IsoDocumentHandler {
  protected below(): Disposition {
    return 'skip'
  }

  type(): string {
    return this.isoMessageType()
  }
}

/**
 * The ISO 20022 message a bank's file holds, told by its root Document's namespace (camt.054.001.08,
 * pain.002.001.10…), after the whole file proved well-formed with the statements' safe reader (no DOCTYPE).
 * @throws ApiError invalid_request (400: malformed XML, a DOCTYPE), unsupported_message (422: no ISO 20022 Document).
 */
export function isoMessageTypeOf(xml: string): string {
  const handler = new RootReader()
  const reader = new XmlReader(handler, new MemoryBudget(INBOUND_FILE_LIMIT, () => new ApiError('payload_too_large', 'The file is too large to read')))
  reader.write(xml)
  reader.end()
  return handler.type()
}
