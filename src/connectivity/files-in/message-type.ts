import { ApiError } from '../../http/errors.js'
import { MemoryBudget } from '../../financial-data/statements/memory-budget.js'
import { XmlReader, type Disposition, type XmlHandler } from '../../financial-data/statements/xml-reader.js'
import { INBOUND_FILE_LIMIT } from './pain002.model.js'

const ISO_NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:(.+)$/

/** The message type a root element declares by its ISO 20022 namespace, e.g. pain.002.001.10. */
export function messageTypeOf(attributes: Readonly<Record<string, string>>): string | undefined {
  for (const [name, value] of Object.entries(attributes)) {
    const match = /^xmlns(:|$)/.test(name) ? ISO_NAMESPACE.exec(value) : null
    if (match) return match[1]
  }
  return undefined
}

/** Keeps the root element's namespace and skips everything inside it. */
class RootReader implements XmlHandler {
  type: string | undefined
  root = ''

  open(name: string, attributes: Readonly<Record<string, string>>): Disposition {
    if (this.root !== '') return 'skip'
    this.root = name
    this.type = messageTypeOf(attributes)
    return 'stream'
  }

  captured(): void {}

  close(): void {}
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
  if (handler.root !== 'Document' || handler.type === undefined) {
    throw new ApiError('unsupported_message', 'The file is no ISO 20022 message: its root must be a Document in an urn:iso:std:iso:20022:tech:xsd namespace')
  }
  return handler.type
}
