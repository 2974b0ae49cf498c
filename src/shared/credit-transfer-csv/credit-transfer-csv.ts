import { parse } from 'csv-parse/sync'
import { TRANSFER_FIELDS, type TransferFields } from './credit-transfer-fields.js'

/**
 * The CSV file of `kassa credit-transfers create --csv`: RFC 4180 (commas, double quotes around cells
 * that hold commas, quotes or line breaks; a UTF-8 byte order mark is ignored), a header line naming
 * the columns, then one credit transfer per row:
 *
 *   sourceAccountId               required  the own account paying
 *   destinationAccountId          one of    an own account receiving, or
 *   destinationExternalAccountId  these     a counterparty's external account receiving
 *   amount                        required  decimal, a point and no thousands separators: 1250.00
 *   currency                      required  ISO 4217, e.g. EUR
 *   date                          required  requested execution date, yyyy-mm-dd
 *   reference                     required  remittance information
 *   externalId                    optional  your own unique reference (the API refuses it twice)
 *   scheme                        optional  SCT (default) or SCT_INST
 *
 * Empty cells count as absent. Rows are numbered from 1, the first row after the header. The CLI sends the rows one
 * by one; POST /payments/v2beta/credit-transfer-batches takes the same file as one batch.
 */
export const REQUIRED_COLUMNS: ReadonlyArray<keyof TransferFields> = ['sourceAccountId', 'amount', 'currency', 'date', 'reference']
const DESTINATION_COLUMNS: ReadonlyArray<keyof TransferFields> = ['destinationAccountId', 'destinationExternalAccountId']

/**
 * Characters of one row at most: nine columns of ids, amounts and a 140-character reference fit in a few hundred, so
 * a longer row is no credit transfer, and the parser stops before holding an endless one (a quote never closed).
 */
export const MAX_CSV_ROW_CHARS = 4_096

export type CsvRow = { row: number; fields: TransferFields } | { row: number; problem: string }

/** Mistakes of the file as a whole (its header, its quoting): nothing of it is sent. */
export class CsvFileError extends Error {}

function checkHeader(header: string[]): void {
  const known = new Set<string>(TRANSFER_FIELDS)
  const unknown = header.filter((name) => !known.has(name))
  if (unknown.length > 0) throw new CsvFileError(`unknown column ${unknown.map((name) => `"${name}"`).join(', ')}; the columns are ${TRANSFER_FIELDS.join(', ')}`)
  const repeated = header.filter((name, index) => header.indexOf(name) !== index)
  if (repeated.length > 0) throw new CsvFileError(`column "${repeated[0]}" appears twice`)
  const missing = REQUIRED_COLUMNS.filter((name) => !header.includes(name))
  if (missing.length > 0) throw new CsvFileError(`missing column ${missing.join(', ')}`)
  if (!DESTINATION_COLUMNS.some((name) => header.includes(name))) throw new CsvFileError(`missing column ${DESTINATION_COLUMNS.join(' or ')}`)
}

/**
 * The rows of a credit-transfer CSV file, each with the fields it gives, or with why it cannot be read
 * (a row whose cell count differs from the header's).
 * @throws CsvFileError when the file is empty, its header is wrong, its quoting is broken, or a row is longer than MAX_CSV_ROW_CHARS.
 */
export function readTransferCsv(content: string): CsvRow[] {
  let records: string[][]
  try {
    records = parse(content, { bom: true, skip_empty_lines: true, trim: true, relax_column_count: true, max_record_size: MAX_CSV_ROW_CHARS })
  } catch (error) {
    throw new CsvFileError((error as Error).message)
  }
  const [header, ...rows] = records
  if (header === undefined) throw new CsvFileError(`the file is empty; its first line names the columns (${TRANSFER_FIELDS.join(', ')})`)
  checkHeader(header)
  return rows.map((cells, index) => {
    const row = index + 1
    if (cells.length !== header.length) return { row, problem: `the row has ${cells.length} cells, the header ${header.length}` }
    const fields = Object.fromEntries(header.map((name, column) => [name, cells[column]]).filter(([, value]) => value !== '')) as TransferFields
    return { row, fields }
  })
}
