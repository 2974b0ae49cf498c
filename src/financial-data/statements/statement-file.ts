import { createHash } from 'node:crypto'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { CamtReader, type CamtHeader } from './camt-parser.js'
import { MemoryBudget } from './memory-budget.js'
import { MAX_PLAN_BYTES, PARSE_SLICE_CHARS, STATEMENT_BODY_LIMIT, statementTooLarge } from './statement.limits.js'
import { ImportPlanner, type StatementAccount, type StatementPlan } from './statement.validation.js'

const MIB = 1024 * 1024

/** A statement file read and checked: its message's header, the plan of each statement, and the digest of its bytes. */
export class StatementFile {
  constructor(
    readonly header: CamtHeader,
    readonly plans: StatementPlan[],
    readonly sha256: string,
  ) {}

  /**
   * What JSON sees of the file: its digest. The Idempotency-Key fingerprint is the request body
   * stringified (idempotency.hooks.ts); a retry of the same bytes matches, another file does not, and
   * the plan is never walked.
   */
  toJSON(): string {
    return `sha256:${this.sha256}`
  }
}

export interface ReadOptions {
  /** The Content-Length the client declared, if any: past the limit, refused before a byte is read. */
  declaredLength?: number
}

/**
 * Reads a statement file from a stream of bytes (UTF-8) and plans its import against the
 * organization's accounts (by account number), writing nothing. The bytes are hashed, decoded and parsed
 * in slices of PARSE_SLICE_CHARS with a turn of the event loop after each, so other requests are
 * answered while a large file is read; only the plan is kept (statement.limits.ts).
 * @throws ApiError 400 (malformed XML, a DOCTYPE, no supported message, every problem of its
 * statements), 413 payload_too_large (past STATEMENT_BODY_LIMIT, MAX_STATEMENT_ENTRIES, MAX_PLAN_BYTES),
 * or whatever the stream fails with.
 */
export async function readStatementFile(
  source: AsyncIterable<Uint8Array | string>,
  accounts: ReadonlyMap<string, StatementAccount[]>,
  options: ReadOptions = {},
): Promise<StatementFile> {
  const size = (bytes: number) => `${(bytes / MIB).toFixed(1)} MiB`
  if (options.declaredLength !== undefined && options.declaredLength > STATEMENT_BODY_LIMIT) {
    throw statementTooLarge(`its Content-Length is ${size(options.declaredLength)}`)
  }
  const budget = new MemoryBudget(MAX_PLAN_BYTES, () => statementTooLarge(`its entries would take more than ${size(MAX_PLAN_BYTES)} of memory to plan`))
  const planner: ImportPlanner = new ImportPlanner(accounts, (offset) => reader.lineOf(offset), budget)
  const reader: CamtReader = new CamtReader(planner, budget)
  const hash = createHash('sha256')
  // The byte order mark, if any, is dropped; malformed bytes become U+FFFD.
  const decoder = new TextDecoder('utf-8')
  let received = 0
  for await (const chunk of source) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    received += bytes.length
    if (received > STATEMENT_BODY_LIMIT) throw statementTooLarge(`it is larger than ${size(STATEMENT_BODY_LIMIT)}`)
    hash.update(bytes)
    const text = decoder.decode(bytes, { stream: true })
    for (let start = 0; start < text.length; start += PARSE_SLICE_CHARS) {
      reader.write(text.slice(start, start + PARSE_SLICE_CHARS))
      await nextTurn()
    }
  }
  reader.write(decoder.decode())
  const header = reader.end()
  return new StatementFile(header, planner.finish(header.kind), hash.digest('hex'))
}
