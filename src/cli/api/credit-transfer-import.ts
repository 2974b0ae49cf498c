import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { KassaApiError, type ErrorDetail, type KassaClient, type paths } from '@kassa/client'
import { DEFAULT_SCHEME, transferBody } from '../../shared/credit-transfer-csv/credit-transfer-fields.js'
import { CsvFileError, readTransferCsv, type CsvRow } from '../../shared/credit-transfer-csv/credit-transfer-csv.js'
import { errorReference, unnamedDetails } from './failure.js'
import { rowProgress } from './row-progress.js'

type CreateCreditTransfer = paths['/payments/v2/credit-transfers']['post']['requestBody']['content']['application/json']

export interface RowDone {
  row: number
  id: string
}

/** A row the API refused (its envelope), or one the CLI could not turn into a request (code invalid_row, nothing sent). */
export interface RowRefused {
  row: number
  code: string
  message: string
  status?: number
  requestId?: string
  details?: ErrorDetail[]
}

export interface ImportSummary {
  file: string
  /** SHA-256 of the file's bytes, from which every row's Idempotency-Key is derived. */
  sha256: string
  rows: number
  created: RowDone[]
  /** Rows an earlier run of the same file had created: the API replayed them (Idempotent-Replayed: true). */
  alreadyCreated: RowDone[]
  refused: RowRefused[]
}

/**
 * spec: Idempotency rules 1 and 4 — the same key on the same endpoint never creates twice. The key
 * names the file's content and the row, so running the same file again (within the keys' 24 hours)
 * creates nothing new; the API answers each row as it did the first time.
 */
export function rowIdempotencyKey(sha256: string, row: number): string {
  return `kassa-csv-${sha256}-${row}`
}

/**
 * Answers that refuse no row but say "not now" (spec: Errors — 425, 429, 503 are safe to retry), still
 * there after the SDK's retries: the run stops, and running the file again goes on where it stopped.
 * The rate limit (KASSA_RATE_LIMIT_PER_MINUTE, per key) is what bounds a long file's pace.
 */
const NOT_ACTED_ON = new Set([425, 429, 503])

/** The server's message for a refused row, or the CLI's own when the row never became a request. */
function refusal(row: number, error: unknown): RowRefused {
  if (error instanceof KassaApiError) {
    return { row, status: error.status, code: error.code, message: error.message, requestId: error.requestId, details: error.details }
  }
  return { row, code: 'invalid_row', message: (error as Error).message }
}

async function send(client: KassaClient, sha256: string, row: CsvRow, summary: ImportSummary): Promise<void> {
  let body: CreateCreditTransfer
  try {
    if ('problem' in row) throw new Error(row.problem)
    // The server validates what the CLI does not need to understand (its 400 names the field).
    body = { scheme: DEFAULT_SCHEME, ...transferBody(row.fields) } as CreateCreditTransfer
  } catch (error) {
    summary.refused.push(refusal(row.row, error))
    return
  }
  try {
    const { data, response } = await client.POST('/payments/v2/credit-transfers', {
      body,
      headers: { 'Idempotency-Key': rowIdempotencyKey(sha256, row.row) },
    })
    const replayed = response.headers.get('idempotent-replayed') === 'true'
    ;(replayed ? summary.alreadyCreated : summary.created).push({ row: row.row, id: data.id })
  } catch (error) {
    if (!(error instanceof KassaApiError) || NOT_ACTED_ON.has(error.status)) throw error
    summary.refused.push(refusal(row.row, error))
  }
}

/**
 * Creates one credit transfer per row of the CSV file `file` (credit-transfer-csv.ts), one after the
 * other (in parallel they would only meet the rate limit sooner), each with the Idempotency-Key of its
 * row. A refused row does not stop the others; an unreachable server or a 425/429/503 does (after the
 * SDK's retries), and running the file again then resumes.
 * @throws CsvFileError for a file whose header or quoting is wrong (nothing sent), or the failure that stopped it.
 */
export async function importTransferCsv(client: KassaClient, file: string): Promise<ImportSummary> {
  const bytes = await readFile(file).catch((error: NodeJS.ErrnoException) => {
    throw new Error(`Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`)
  })
  const sha256 = createHash('sha256').update(bytes).digest('hex')
  const rows = (() => {
    try {
      return readTransferCsv(bytes.toString('utf8'))
    } catch (error) {
      throw error instanceof CsvFileError ? new CsvFileError(`${file}: ${error.message}`) : error
    }
  })()
  const summary: ImportSummary = { file, sha256, rows: rows.length, created: [], alreadyCreated: [], refused: [] }
  const progress = rowProgress(rows.length)
  try {
    for (const row of rows) {
      await send(client, sha256, row, summary)
      progress.update(summary)
    }
  } catch (error) {
    progress.stop()
    const done = summary.created.length + summary.alreadyCreated.length + summary.refused.length
    process.stderr.write(`kassa: stopped after ${done} of ${rows.length} rows; running the same file again sends the rest and creates none twice\n`)
    throw error
  }
  progress.stop()
  return summary
}

/** The summary as people read it: the counts, then each refused row with the server's reference. */
export function renderImportSummary(summary: ImportSummary): string {
  const lines = [
    `${summary.rows} rows in ${summary.file}: ${summary.created.length} created, ${summary.alreadyCreated.length} already created, ` +
      `${summary.refused.length} refused`,
  ]
  for (const refused of summary.refused) {
    const reference = refused.status === undefined ? `${refused.code}, not sent` : errorReference(refused)
    lines.push(`row ${refused.row} refused: ${refused.message} (${reference})`, ...unnamedDetails(refused).map((line) => `  ${line}`))
  }
  return `${lines.join('\n')}\n`
}
