import { ApiError } from '../../http/errors.js'
import { balanceOf, compact, entryOf, statementHeadOf } from './camt-extract.js'
import {
  MESSAGE_KINDS,
  SUPPORTED_VERSIONS,
  type CamtBalance,
  type CamtEntry,
  type CamtKind,
  type CamtMessage,
  type CamtStatement,
} from './camt-model.js'
import { text, type Node } from './camt-xml.js'
import { MemoryBudget } from './memory-budget.js'
import { MAX_PLAN_BYTES, MAX_STATEMENT_ENTRIES, statementTooLarge } from './statement.limits.js'
import { XmlReader, type Disposition, type XmlHandler } from './xml-reader.js'

export * from './camt-model.js'

/**
 * ISO 20022 bank-to-customer cash management messages (camt.053, camt.052, camt.054; optionally in an
 * envelope beside their AppHdr), read as they stream in: the document's structure is followed down to
 * its statements, and each balance and entry is handed to a sink as soon as it is complete, so that
 * nothing of the file is kept but what the sink keeps. Extraction is camt-extract.ts's.
 */

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})\.(\d{3}\.\d{2})$/

/** A statement (report, notification) before its balances and entries. */
export type CamtStatementHead = Omit<CamtStatement, 'balances' | 'entries'>

/** Where the parts of a message go, in document order. */
export interface CamtSink {
  statement(statement: CamtStatementHead): void
  balance(balance: CamtBalance): void
  entry(entry: CamtEntry): void
  endStatement(): void
}

export type CamtHeader = Pick<CamtMessage, 'kind' | 'version' | 'namespace' | 'messageId'> & { statementsFound: number }

/**
 * The elements of a statement that make its head. ISO 20022 orders them before its balances and
 * entries; they are taken wherever they come before the first entry (issue 12: files are read for
 * their meaning, not their schema order), since each entry is checked against the statement's account
 * as it is read, and balances that come first wait for them.
 */
const HEAD_ELEMENTS = new Set(['Id', 'ElctrncSeqNb', 'CreDtTm', 'FrToDt', 'Acct'])

type Role = 'root' | 'document' | 'body' | 'statement'

function reject(field: string, error: string, message = error): ApiError {
  return new ApiError('invalid_request', message, [{ code: 'unsupported_message', field, error }])
}

function namespacesOf(attributes: Readonly<Record<string, string>>): string[] {
  return Object.entries(attributes)
    .filter(([name]) => /^xmlns(:|$)/.test(name))
    .map(([, value]) => value)
}

export class CamtReader implements XmlHandler {
  private readonly xml: XmlReader
  /** The streamed elements open around the parser, outermost first. */
  private readonly roles: Role[] = []
  private rootName = ''
  private readonly namespaces: string[] = []
  private message: Omit<CamtHeader, 'statementsFound' | 'messageId'> | undefined
  private messageId: string | undefined
  private firstContent: string | undefined
  /**
   * A document that is no supported message is rejected once it has proved well-formed, as a whole
   * document is (malformed XML is the more basic fault); its remaining elements are skipped.
   */
  private rejection: ApiError | undefined
  private statements = 0
  private entriesFound = 0
  private statement:
    | { path: string; offset: number; head: Node; delivered: boolean; balances: number; entries: number; waiting: CamtBalance[] }
    | undefined

  constructor(
    private readonly sink: CamtSink,
    budget: MemoryBudget,
  ) {
    this.xml = new XmlReader(this, budget)
  }

  /** Reads the next piece of the document. @throws ApiError (400, 413) as XmlReader and the sink do. */
  write(piece: string): void {
    this.xml.write(piece)
  }

  /** The end of the document. @throws ApiError (400) when it is incomplete or no supported message. */
  end(): CamtHeader {
    this.xml.end()
    if (this.rejection) throw this.rejection
    return { ...this.message!, ...compact({ messageId: this.messageId }), statementsFound: this.statements }
  }

  lineOf(offset: number | undefined): { line: number; column: number } | undefined {
    return this.xml.lineOf(offset)
  }

  open(name: string, attributes: Readonly<Record<string, string>>, at: number): Disposition {
    if (this.rejection) return 'skip'
    const parent = this.roles.at(-1)
    if (parent === undefined) this.rootName = name
    if ((parent === undefined || parent === 'root') && name === 'Document') {
      this.namespaces.push(...namespacesOf(attributes))
      return this.enter('document')
    }
    switch (parent) {
      case undefined:
        this.namespaces.push(...namespacesOf(attributes))
        return this.enter('root')
      case 'document':
        return this.body(name)
      case 'body':
        if (name === 'GrpHdr') return 'capture'
        if (name !== MESSAGE_KINDS[this.message!.kind].item) return 'skip'
        this.statements += 1
        this.statement = { path: `${name}[${this.statements}]`, offset: at, head: {}, delivered: false, balances: 0, entries: 0, waiting: [] }
        return this.enter('statement')
      case 'statement':
        return this.statementPart(name)
      default:
        return 'skip'
    }
  }

  captured(name: string, value: unknown, at: number): void {
    const statement = this.statement
    if (!statement) {
      this.messageId = text(value, 'MsgId')
      return
    }
    if (HEAD_ELEMENTS.has(name)) {
      statement.head[name] ??= value
    } else if (name === 'Bal') {
      statement.balances += 1
      const balance = balanceOf(value, `${statement.path}.Bal[${statement.balances}]`, at)
      if (statement.delivered) this.sink.balance(balance)
      else statement.waiting.push(balance)
    } else {
      this.deliverHead()
      statement.entries += 1
      this.sink.entry(entryOf(value, `${statement.path}.Ntry[${statement.entries}]`, at))
    }
  }

  close(name: string): void {
    const role = this.roles.pop()
    if (role === 'statement') {
      this.deliverHead()
      this.sink.endStatement()
      this.statement = undefined
    } else if (role === 'document' && !this.rejection && this.firstContent === undefined) {
      this.detect('')
      this.rejection ??= this.bodyMismatch('nothing')
    } else if (role === 'root' && this.firstContent === undefined) {
      this.rejection ??= reject(name, 'is no ISO 20022 Document', `The root element <${this.rootName}> is not an ISO 20022 Document; send a camt.053, camt.052 or camt.054 message`)
    }
  }

  private enter(role: Role): Disposition {
    this.roles.push(role)
    return 'stream'
  }

  /** The Document's first element: the message it holds, told by the namespace. */
  private body(name: string): Disposition {
    if (this.firstContent !== undefined) return 'skip'
    this.firstContent = name
    this.detect(name)
    if (this.rejection) return 'skip'
    if (name !== MESSAGE_KINDS[this.message!.kind].root) {
      this.rejection = this.bodyMismatch(name)
      return 'skip'
    }
    return this.enter('body')
  }

  private detect(content: string): void {
    const namespaces = this.namespaces.filter((namespace) => NAMESPACE.test(namespace) && !namespace.includes(':head.'))
    const namespace = namespaces.at(-1)
    const match = namespace !== undefined ? NAMESPACE.exec(namespace) : null
    const kind = match?.[1]
    if (!match || !(kind! in MESSAGE_KINDS)) {
      const name = namespace ?? 'no ISO 20022 namespace'
      this.rejection = reject('Document', `${name} (Document/${content}) is not a supported message`, `Unsupported message: ${name} (Document/${content}); Kassa imports camt.053, camt.052 and camt.054`)
      return
    }
    const version = match[2]!
    if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
      this.rejection = reject('Document', `${namespace} is not a supported version`, `Unsupported message version ${kind}.${version}; Kassa imports versions ${SUPPORTED_VERSIONS[0]} to ${SUPPORTED_VERSIONS.at(-1)}`)
      return
    }
    this.message = { kind: kind as CamtKind, version, namespace: namespace! }
  }

  private bodyMismatch(content: string): ApiError {
    const { kind } = this.message!
    const { root } = MESSAGE_KINDS[kind]
    return reject(`Document.${content}`, `a ${kind} Document holds ${root}`, `A ${kind} Document holds ${root}, not ${content}`)
  }

  private statementPart(name: string): Disposition {
    const statement = this.statement!
    if (HEAD_ELEMENTS.has(name) && statement.delivered) {
      throw new ApiError('invalid_request', `The statement file was rejected: ${statement.path}.${name} must come before the statement's entries`, [
        { code: 'invalid_order', field: `${statement.path}.${name}`, error: "must come before the first Ntry: each entry is checked against the statement's account as it is read" },
      ])
    }
    if (name === 'Ntry') {
      this.entriesFound += 1
      if (this.entriesFound > MAX_STATEMENT_ENTRIES) throw statementTooLarge(`it holds more than ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries (Ntry)`)
    }
    return name === 'Ntry' || name === 'Bal' || HEAD_ELEMENTS.has(name) ? 'capture' : 'skip'
  }

  private deliverHead(): void {
    const statement = this.statement!
    if (statement.delivered) return
    statement.delivered = true
    this.sink.statement(statementHeadOf(statement.head, statement.path, statement.offset))
    for (const balance of statement.waiting) this.sink.balance(balance)
    statement.waiting = []
  }
}

/**
 * Parses a whole camt.053, camt.052 or camt.054 document held in a string (tests, small files).
 * @throws ApiError invalid_request (400): malformed XML (with line and column), a DOCTYPE, or a
 * document that is no supported message (naming the root element and namespace); 413 past the limits.
 */
export function parseCamt(input: string): CamtMessage {
  const statements: CamtStatement[] = []
  const reader = new CamtReader(
    {
      statement: (head) => statements.push({ ...head, balances: [], entries: [] }),
      balance: (balance) => statements.at(-1)!.balances.push(balance),
      entry: (entry) => statements.at(-1)!.entries.push(entry),
      endStatement: () => undefined,
    },
    new MemoryBudget(MAX_PLAN_BYTES, () => statementTooLarge('its entries take too much memory')),
  )
  reader.write(input.charCodeAt(0) === 0xfeff ? input.slice(1) : input)
  const { statementsFound: _found, ...header } = reader.end()
  return { ...header, statements, lineOf: (offset) => reader.lineOf(offset) }
}
