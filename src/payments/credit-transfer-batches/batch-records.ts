import { validationDetails } from '../../http/error-handler.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { bodyValidator } from '../../http/validation.js'
import { CsvFileError, readTransferCsv } from '../../shared/credit-transfer-csv/credit-transfer-csv.js'
import { DEFAULT_SCHEME, transferBody } from '../../shared/credit-transfer-csv/credit-transfer-fields.js'
import { CreateCreditTransfer } from '../credit-transfers/credit-transfer.schemas.js'
import { MAX_BATCH_RECORDS, type BatchError } from './credit-transfer-batch.schemas.js'

/**
 * A batch's input as records: each a credit transfer to create, or the errors that keep it from being one. A record
 * is checked against the schema of POST /payments/v2/credit-transfers, with the same validator settings and error
 * details as that request's 400; the bank's rules follow in the service (draftCreditTransfer), also per record.
 */
export interface BatchRecord {
  recordIndex: number
  input?: CreateCreditTransfer
  errors: BatchError[]
}

const validateRecord = bodyValidator(CreateCreditTransfer)

function checkedRecord(recordIndex: number, value: unknown): BatchRecord {
  if (validateRecord(value)) return { recordIndex, input: value as CreateCreditTransfer, errors: [] }
  return { recordIndex, errors: validationDetails(validateRecord.errors ?? []) }
}

/** @throws ApiError payload_too_large (413) past MAX_BATCH_RECORDS. */
function bounded<T>(records: T[]): T[] {
  if (records.length > MAX_BATCH_RECORDS) {
    throw new ApiError(
      'payload_too_large',
      `The batch has ${records.length} records; a batch has at most ${MAX_BATCH_RECORDS.toLocaleString('en-US')}: split it into several batches`,
    )
  }
  return records
}

/** The records of a JSON body's `payments`, recordIndex being the index in it. @throws ApiError payload_too_large (413). */
export function jsonRecords(payments: readonly unknown[]): BatchRecord[] {
  return bounded([...payments]).map((payment, index) => checkedRecord(index, payment))
}

/**
 * The records of a CSV file (src/shared/credit-transfer-csv: the CLI's columns, mapped to the API's body by the
 * CLI's mapping), the first row after the header being record 0. A row that cannot be read — another cell count
 * than the header's, an amount its currency cannot hold, two destinations — is that record's error.
 * @throws ApiError invalid_request (400, field `file`) when the file as a whole is unreadable: empty, not UTF-8, a
 * wrong header, a quote never closed, a row past MAX_CSV_ROW_CHARS; payload_too_large (413) past MAX_BATCH_RECORDS.
 */
export function csvRecords(file: Buffer): BatchRecord[] {
  let content: string
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(file)
  } catch {
    throw invalidField('file', 'is not UTF-8 text')
  }
  let rows: ReturnType<typeof readTransferCsv>
  try {
    rows = readTransferCsv(content)
  } catch (error) {
    if (error instanceof CsvFileError) throw invalidField('file', `is not a credit transfer CSV file: ${error.message}`)
    throw error
  }
  return bounded(rows).map((row) => {
    const recordIndex = row.row - 1
    if ('problem' in row) return { recordIndex, errors: [{ code: 'invalid_row', field: '', error: row.problem }] }
    try {
      return checkedRecord(recordIndex, { scheme: DEFAULT_SCHEME, ...transferBody(row.fields) })
    } catch (error) {
      return { recordIndex, errors: [{ code: 'invalid_row', field: '', error: (error as Error).message }] }
    }
  })
}
