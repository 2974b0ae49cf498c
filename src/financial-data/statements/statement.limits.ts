import { ApiError } from '../../http/errors.js'

/**
 * The limits of one statement file (issue 9: one upload of ~200 MB exhausted the heap; 16 MB froze
 * every other request for 13 s). The file is read as a stream and never held: what an import keeps
 * in memory is the plan of what it will book, one transaction per booked entry or split payment, and
 * that plan is what these limits bound. Together they keep an import within STATEMENT_MEMORY_BUDGET
 * of memory above an idle server whatever the file's size, and the process runs one import at a time
 * (import-gate.ts), so the budget is the process's, not each request's. The README cites them.
 */

/** What an import may add to the process's resident memory, at most: what the limits below are chosen for. */
export const STATEMENT_MEMORY_BUDGET = 256 * 1024 * 1024

/**
 * Bytes of a statement file. Streaming makes the file's size cost time, not memory, so this bounds the
 * time a file may occupy the import (about 15 s of one core per 100 MiB, in slices): a year of a busy
 * account's statements as banks write them, pretty-printed at 1–2 KB an entry.
 */
export const STATEMENT_BODY_LIMIT = 200 * 1024 * 1024

/**
 * Entries (Ntry) of a file, all its statements together. Each becomes at least one transaction held in
 * the plan until the file's one transaction commits: about 420 bytes of JSON (planned-entries.ts) and
 * 100 of index. What the process grows by is more: V8 lets garbage pile up to about four times the
 * live heap between full collections while the file is parsed and booked. Measured with the server
 * probed every 50 ms (test/slow/), on SQLite and PostgreSQL: 150,000 entries (78 MiB generated) took it
 * up by 185–217 MiB, too near the budget to promise; 100,000 (52 MiB) by 109–177 MiB.
 */
export const MAX_STATEMENT_ENTRIES = 100_000

/**
 * Bytes of the plan: its entries' JSON, exactly, and an estimate of the index of their references
 * (memory-budget.ts). It stops files whose entries are few but large — thousands of payments batched
 * into one entry, long remittance texts — before they outgrow the budget that the entry count keeps
 * typical files within (100,000 generated entries plan to 44 MiB).
 */
export const MAX_PLAN_BYTES = 64 * 1024 * 1024

/**
 * Characters the XML parser may read without completing anything — one text, tag, comment or
 * declaration. ISO 20022 texts are at most a few hundred characters; without this, one endless text
 * would be accumulated whole before any limit above could see it.
 */
export const MAX_XML_TOKEN_CHARS = 1024 * 1024

/** Characters parsed between two turns of the event loop: 5–10 ms of work, so other requests wait no longer. */
export const PARSE_SLICE_CHARS = 64 * 1024

/** Transactions booked between two turns of the event loop inside the import's transaction: tens of milliseconds of SQLite's work. */
export const BOOKING_BATCH = 250

/**
 * ...or fewer, when their JSON in the plan passes this many characters. A batch is held several times over
 * while it is booked (decoded, its rows, its events): one transaction per batch when each has a text of a
 * million characters. Measured (test/slow/): 60 transactions of 1 MB texts booked in one batch took the
 * process up by 319 MiB, past STATEMENT_MEMORY_BUDGET.
 */
export const BOOKING_BATCH_CHARACTERS = 1024 * 1024

const MIB = 1024 * 1024

/** The 413 of a file past one of the limits; `what` says which, in the client's terms. */
export function statementTooLarge(what: string): ApiError {
  return new ApiError(
    'payload_too_large',
    `The statement file is too large to import at once: ${what}. Kassa imports files of up to ${STATEMENT_BODY_LIMIT / MIB} MiB ` +
      `and ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries; split it into several files (a day or a week each)`,
  )
}
