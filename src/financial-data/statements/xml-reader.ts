import { SaxesParser, type SaxesTagPlain } from 'saxes'
import { ApiError } from '../../http/errors.js'
import type { Node } from './camt-xml.js'
import { treeBytes, type MemoryBudget } from './memory-budget.js'
import { MAX_XML_TOKEN_CHARS, statementTooLarge } from './statement.limits.js'

/**
 * XML read piece by piece (saxes), keeping only what the reader's handler asks for. Elements whose
 * parent is streamed are offered to the handler, which streams them too (their children are offered in
 * turn), captures them whole as a tree (camt-xml.ts's shapes: an entry, a balance) or skips them. Text
 * is kept inside captured elements only, and each captured tree counts against the memory budget while
 * it exists.
 *
 * No document type definitions: a DOCTYPE is refused where it appears, before the root element, so no
 * entity of a DTD — internal, external or parameter — is ever read or expanded. The five predefined
 * entities and numeric character references decode, as XML 1.0 §4.6 and §4.1 require of every parser.
 */

export type Disposition = 'stream' | 'capture' | 'skip'

export interface XmlHandler {
  /** An element whose parent is streamed (the root's too) opens at character offset `at`. */
  open(name: string, attributes: Readonly<Record<string, string>>, at: number): Disposition
  /** A captured element is complete. */
  captured(name: string, value: unknown, at: number): void
  /** A streamed element closes. */
  close(name: string): void
}

interface Capture {
  name: string
  attributes: Record<string, string>
  children?: Node
  text: string
}

/** Prefixed elements (<ns2:Ntry>) read like unprefixed ones; the namespace is told by the xmlns attributes. */
function localName(name: string): string {
  return name.slice(name.indexOf(':') + 1)
}

/**
 * A copy of text cut from a parsed piece. V8 represents a substring of 13 characters or more as a view
 * of its whole source string: a value kept (an entry reference in the plan's index) would keep the whole
 * piece of the file alive.
 */
function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1)
}

function valueOf(capture: Capture): unknown {
  const text = capture.text.trim()
  const attributes = Object.entries(capture.attributes)
  if (capture.children === undefined && attributes.length === 0) return own(text)
  const node: Node = capture.children ?? {}
  for (const [name, value] of attributes) node[`@${name}`] = own(value)
  if (text !== '') node['#text'] = own(text)
  return node
}

function addChild(parent: Capture, name: string, value: unknown): void {
  // It would set the tree's prototype rather than add a child; no ISO 20022 element is named so. (Trees are
  // plain objects: without a prototype V8 would keep each as a dictionary, twice the size.)
  if (name === '__proto__') return
  const children: Node = (parent.children ??= {})
  const existing = Object.hasOwn(children, name) ? children[name] : undefined
  if (existing === undefined) children[name] = value
  else if (Array.isArray(existing)) existing.push(value)
  else children[name] = [existing, value]
}

export class XmlReader {
  private readonly parser = new SaxesParser<{ xmlns: false }>({ xmlns: false })
  /** The captured element being built and its open descendants, innermost last. */
  private readonly captures: Capture[] = []
  private captureAt = 0
  private captureBytes = 0
  private skipDepth = 0
  /** Where the parser last completed something: a tag, a text, a comment. */
  private lastEvent = 0
  /** The current piece of text and the characters written before it, to quote a bad closing tag. */
  private piece = ''
  private written = 0
  private lastClosed = ''
  /** Line and column of every element offered to the handler and not skipped, by offset (ascending). */
  private readonly offsets: number[] = []
  private readonly lines: number[] = []
  private readonly columns: number[] = []

  constructor(
    private readonly handler: XmlHandler,
    private readonly budget: MemoryBudget,
  ) {
    const parser = this.parser
    parser.on('doctype', () => {
      const where = `line ${parser.line}`
      throw new ApiError('invalid_request', `The body declares a DOCTYPE (${where}): Kassa reads no document type definitions and expands none of their entities; send the statement without one`, [
        { code: 'doctype_not_allowed', field: where, error: 'a DOCTYPE declaration is not accepted' },
      ])
    })
    parser.on('error', (error) => {
      throw this.malformed(error.message)
    })
    parser.on('opentag', (tag) => this.open(tag))
    parser.on('closetag', (tag) => this.close(tag))
    parser.on('text', (text) => this.text(text))
    parser.on('cdata', (text) => this.text(text))
    const seen = () => {
      this.lastEvent = parser.position
    }
    parser.on('comment', seen)
    parser.on('processinginstruction', seen)
    parser.on('xmldecl', seen)
  }

  /** Parses the next piece. @throws ApiError: 400 malformed XML or a DOCTYPE, 413 past a limit, or the handler's. */
  write(piece: string): void {
    this.piece = piece
    this.parser.write(piece)
    this.written += piece.length
    if (this.parser.position - this.lastEvent > MAX_XML_TOKEN_CHARS) {
      throw statementTooLarge(`a single text, tag or comment runs past ${MAX_XML_TOKEN_CHARS / 1024 / 1024} MiB (at line ${this.parser.line})`)
    }
  }

  /** The end of the document. @throws ApiError (400) when it is incomplete. */
  end(): void {
    this.parser.close()
  }

  /** 1-based line and column of an element offered to the handler, by the offset it was offered at. */
  lineOf(offset: number | undefined): { line: number; column: number } | undefined {
    if (offset === undefined) return undefined
    let low = 0
    let high = this.offsets.length - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      const found = this.offsets[middle]!
      if (found === offset) return { line: this.lines[middle]!, column: this.columns[middle]! }
      if (found < offset) low = middle + 1
      else high = middle - 1
    }
    return undefined
  }

  private open(tag: SaxesTagPlain): void {
    const at = this.parser.position
    this.lastEvent = at
    if (this.skipDepth > 0) {
      this.skipDepth += 1
      return
    }
    const name = localName(tag.name)
    if (this.captures.length === 0) {
      const disposition = this.handler.open(name, tag.attributes, at)
      if (disposition === 'skip') {
        this.skipDepth = 1
        return
      }
      this.offsets.push(at)
      this.lines.push(this.parser.line)
      // The parser's column is 0-based and already past '>': the element's content starts at this 1-based column.
      this.columns.push(this.parser.column + 1)
      if (disposition === 'stream') return
      this.captureAt = at
    }
    this.captures.push({ name, attributes: tag.attributes, text: '' })
    this.spend(treeBytes(0))
  }

  private close(tag: SaxesTagPlain): void {
    this.lastEvent = this.parser.position
    this.lastClosed = tag.name
    if (this.skipDepth > 0) {
      this.skipDepth -= 1
      return
    }
    const capture = this.captures.pop()
    if (!capture) return this.handler.close(localName(tag.name))
    const value = valueOf(capture)
    const parent = this.captures.at(-1)
    if (parent) return addChild(parent, capture.name, value)
    this.handler.captured(capture.name, value, this.captureAt)
    this.budget.give(this.captureBytes)
    this.captureBytes = 0
  }

  private text(text: string): void {
    this.lastEvent = this.parser.position
    const capture = this.captures.at(-1)
    if (!capture) return
    capture.text += text
    this.spend(treeBytes(text.length) - treeBytes(0))
  }

  private spend(bytes: number): void {
    this.captureBytes += bytes
    this.budget.take(bytes)
  }

  private malformed(message: string): ApiError {
    // saxes prefixes "line:column: " and ends with a period.
    let reason = message.replace(/^\d+:\d+: /, '').replace(/\.$/, '')
    let column = this.parser.column
    if (reason === 'unexpected close tag') {
      // saxes has already taken the element it expected off its stack: name both, at the closing tag.
      const end = this.parser.position - this.written
      const start = this.piece.lastIndexOf('</', end)
      if (start !== -1) {
        reason = `Expected closing tag '${this.lastClosed}' instead of closing tag '${this.piece.slice(start + 2, end - 1).trim()}'`
        column -= end - start - 1
      }
    }
    const where = `line ${this.parser.line}, column ${column}`
    return new ApiError('invalid_request', `The body is not well-formed XML: ${reason} (${where})`, [{ code: 'malformed_xml', field: where, error: reason }])
  }
}
