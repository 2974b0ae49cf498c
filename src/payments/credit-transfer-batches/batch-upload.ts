import { createHash } from 'node:crypto'
import type { IncomingHttpHeaders } from 'node:http'
import type { Readable } from 'node:stream'
import { Busboy, type BusboyConfig, type BusboyInstance } from '@fastify/busboy'
import { ApiError, invalidField } from '../../http/errors.js'
import { BATCH_TREATMENTS } from '../lifecycle/payment.schemas.js'
import { EXTERNAL_ID_PATTERN } from '../../shared/common.schemas.js'

/**
 * The multipart/form-data body of POST /payments/v2beta/credit-transfer-batches (RFC 7578): a CSV `file` and the
 * batch's fields `treatment`, `skipValidationErrors`, `externalId`. Read by @fastify/busboy with limits on every part,
 * so nothing unbounded is held: the file, the fields, their number.
 */

/** Bytes of the CSV file: 1,000 records of a few hundred characters fit several times over. */
export const BATCH_FILE_LIMIT = 1024 * 1024

const MIB = 1024 * 1024

const LIMITS: BusboyConfig['limits'] = { fileSize: BATCH_FILE_LIMIT, files: 1, fields: 8, parts: 9, fieldSize: 1024, fieldNameSize: 64 }

/** What a client sends past which the rest of a refused upload is no longer read (it is answered at once). */
const DRAIN_LIMIT = 4 * BATCH_FILE_LIMIT

export interface UploadFields {
  treatment: (typeof BATCH_TREATMENTS)[number]
  skipValidationErrors: boolean
  externalId?: string
}

/** A read upload. Its JSON (what the Idempotency-Key's fingerprint hashes) names the file by its SHA-256. */
export class BatchUpload {
  readonly checksum: string
  constructor(
    readonly fields: UploadFields,
    readonly file: Buffer,
    readonly filename: string | undefined,
  ) {
    this.checksum = createHash('sha256').update(file).digest('hex')
  }

  toJSON() {
    return { ...this.fields, file: { filename: this.filename, size: this.file.length, checksum: this.checksum } }
  }
}

/** @throws ApiError invalid_request (400) naming the field. */
function uploadFields(given: Map<string, string>): UploadFields {
  const unknown = [...given.keys()].find((name) => !['treatment', 'skipValidationErrors', 'externalId'].includes(name))
  if (unknown !== undefined) throw invalidField(unknown, 'is not a known field; the fields are file, treatment, skipValidationErrors, externalId', 'unknown_field')
  const treatment = given.get('treatment')
  if (treatment === undefined) throw invalidField('treatment', 'is required', 'required')
  if (!(BATCH_TREATMENTS as readonly string[]).includes(treatment)) throw invalidField('treatment', `must be one of [${BATCH_TREATMENTS.join(', ')}]`)
  const skip = given.get('skipValidationErrors') ?? 'false'
  if (skip !== 'true' && skip !== 'false') throw invalidField('skipValidationErrors', 'must be true or false')
  const externalId = given.get('externalId')
  if (externalId !== undefined && !new RegExp(EXTERNAL_ID_PATTERN).test(externalId)) {
    throw invalidField('externalId', 'must be 1 to 64 of letters, digits and . _ - + =')
  }
  return { treatment: treatment as UploadFields['treatment'], skipValidationErrors: skip === 'true', ...(externalId !== undefined ? { externalId } : {}) }
}

/**
 * Reads the form. A refused upload is still read to its end (up to DRAIN_LIMIT) before the answer, as statement
 * uploads are: a connection closed on unread data is reset, and the client, still sending, would lose the answer.
 * @throws ApiError invalid_request (400: not a form, no file, a bad field, a field past 1 KiB), payload_too_large (413: a file past BATCH_FILE_LIMIT).
 */
export function readBatchUpload(headers: IncomingHttpHeaders, payload: Readable): Promise<BatchUpload> {
  return new Promise((resolve, reject) => {
    let parser: BusboyInstance
    try {
      parser = new Busboy({ headers: headers as BusboyConfig['headers'], limits: LIMITS })
    } catch (error) {
      reject(new ApiError('invalid_request', `The multipart/form-data body cannot be read: ${(error as Error).message}`))
      return
    }
    const fields = new Map<string, string>()
    const chunks: Buffer[] = []
    let filename: string | undefined
    let files = 0
    let refusal: ApiError | undefined
    let received = 0
    const refuse = (error: ApiError) => {
      refusal ??= error
    }
    parser.on('field', (name, value, nameTruncated, valueTruncated) => {
      if (nameTruncated || valueTruncated) refuse(invalidField(name, 'is longer than a form field may be (1 KiB)'))
      else if (fields.has(name)) refuse(invalidField(name, 'is given twice'))
      else fields.set(name, value)
    })
    parser.on('file', (name, stream, givenFilename) => {
      files += 1
      if (name !== 'file') refuse(invalidField(name, 'is not a known file field; send the CSV file as the field file', 'unknown_field'))
      filename = givenFilename
      stream.on('data', (chunk: Buffer) => {
        if (!refusal) chunks.push(chunk)
      })
      stream.on('limit', () => {
        refuse(new ApiError('payload_too_large', `The CSV file is larger than ${BATCH_FILE_LIMIT / MIB} MiB; split it into several batches`))
      })
    })
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit']) {
      parser.on(limit, () => refuse(new ApiError('invalid_request', 'The form has more parts than file, treatment, skipValidationErrors and externalId')))
    }
    parser.on('error', (error: Error) => {
      payload.unpipe(parser)
      reject(refusal ?? new ApiError('invalid_request', `The multipart/form-data body cannot be read: ${error.message}`))
    })
    parser.on('finish', () => {
      if (refusal) return reject(refusal)
      if (files === 0) return reject(invalidField('file', 'is required: send the CSV file as the form field file', 'required'))
      try {
        resolve(new BatchUpload(uploadFields(fields), Buffer.concat(chunks), filename))
      } catch (error) {
        reject(error)
      }
    })
    payload.on('data', (chunk: Buffer) => {
      received += chunk.length
      if (refusal && received > DRAIN_LIMIT) {
        payload.unpipe(parser)
        reject(refusal)
      }
    })
    payload.on('error', (error) => reject(error))
    payload.pipe(parser)
  })
}
