import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../../http/pagination.js'
import { Etag, ExternalId, Metadata, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { Amount } from '../../shared/money.js'
import { CreateCreditTransfer } from '../credit-transfers/credit-transfer.schemas.js'
import { ApprovalStep, BATCH_TREATMENTS } from '../lifecycle/payment.schemas.js'

/** reference §3.4: credit transfer batches, as posted and as served. */

/** The content types the reference names a batch's input by (inputContent.contentType). */
export const BATCH_CONTENT_TYPES = {
  json: 'application/vnd.atlar.payments.v2.credit-transfer.batch+json',
  csv: 'application/vnd.atlar.payments.v2.credit-transfer.batch+csv',
} as const

/**
 * Records of one batch at most. A batch is made in its request's one transaction (the batch, its payments, their
 * events and the idempotent answer commit together), so its size bounds how long that transaction holds the
 * database: about a second for 1,000 records. A longer list is a 413 — split it.
 */
export const MAX_BATCH_RECORDS = 1_000

/** reference §3.4: a batch's errors are listed up to 255 (its records' errors are in its results). */
export const MAX_BATCH_ERRORS = 255

/** A fault, as the details of an error answer name one (reference §6 ErrorDetails). */
export const BatchError = Type.Object({
  code: Type.String(),
  field: Type.String({ description: 'Dot path of the field at fault within the record; empty for the record or batch as a whole' }),
  error: Type.String(),
})
export type BatchError = Static<typeof BatchError>

const Treatment = Type.Enum([...BATCH_TREATMENTS], {
  description:
    'INDIVIDUAL_PAYMENTS: each valid record becomes a payment approved on its own, as if created alone; invalid records fail. ' +
    'BATCH: the payments are approved or rejected together, by the batch\'s approval steps (evaluated on its total), and share ' +
    'one source account; one invalid record makes the batch create nothing, unless skipValidationErrors skips the invalid ones',
  examples: ['BATCH'],
})

const SkipValidationErrors = Type.Boolean({
  description:
    'Invalid records are skipped (their errors kept) instead of failed; for treatment BATCH this also lets the valid records ' +
    'become payments, where otherwise one invalid record makes the batch create nothing. Default false',
})

export const CreateCreditTransferBatch = Type.Object(
  {
    treatment: Treatment,
    payments: Type.Array(CreateCreditTransfer, {
      minItems: 1,
      description: `The credit transfers, at most ${MAX_BATCH_RECORDS.toLocaleString('en-US')}; each is validated on its own, as POST /payments/v2/credit-transfers validates one, and its result names its index in this list (recordIndex)`,
    }),
    skipValidationErrors: Type.Optional(SkipValidationErrors),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        treatment: 'BATCH',
        externalId: 'payroll-2025-06',
        payments: [
          {
            amount: { currency: 'EUR', value: 310000 },
            date: '2025-06-25',
            scheme: 'SCT',
            source: { type: 'ACCOUNT', id: '0197a3c2-5e10-7b2a-9c41-2f6d8e0a1b3c' },
            destination: { type: 'EXTERNAL_ACCOUNT', id: '0197a3c4-0d2e-7f61-8a53-6b7c9d1e2f40' },
            reference: 'Salary June 2025',
          },
        ],
      },
    ],
  },
)
export type CreateCreditTransferBatch = Static<typeof CreateCreditTransferBatch>

/**
 * What the route validates of a JSON body before its records: the batch's own fields. The records are validated one by
 * one (batch-records.ts), so that one bad record is that record's error, not the request's 400.
 */
export const CreditTransferBatchEnvelope = Type.Object(
  { ...CreateCreditTransferBatch.properties, payments: Type.Array(Type.Unknown(), { minItems: 1 }) },
  { additionalProperties: false },
)
export type CreditTransferBatchEnvelope = Static<typeof CreditTransferBatchEnvelope>

/** The multipart/form-data body: the CSV file and the batch's fields as form fields (documentation; batch-upload.ts reads it). */
export const CreditTransferBatchUploadForm = Type.Object(
  {
    treatment: Treatment,
    file: Type.String({
      format: 'binary',
      description:
        'The CSV file (UTF-8, RFC 4180) of `kassa credit-transfers create --csv`: a header naming the columns sourceAccountId, ' +
        'destinationAccountId or destinationExternalAccountId, amount (decimal, e.g. 1250.00), currency, date, reference, and ' +
        'optionally externalId and scheme (SCT when empty); then one credit transfer per row, the first row after the header being record 0',
    }),
    skipValidationErrors: Type.Optional(Type.Enum(['true', 'false'])),
    externalId: Type.Optional(ExternalId),
  },
  {
    additionalProperties: false,
    examples: [
      {
        treatment: 'INDIVIDUAL_PAYMENTS',
        externalId: 'suppliers-2025-06-27',
        file:
          'sourceAccountId,destinationExternalAccountId,amount,currency,date,reference,externalId\r\n' +
          '0197a3c2-5e10-7b2a-9c41-2f6d8e0a1b3c,0197a3c4-0d2e-7f61-8a53-6b7c9d1e2f40,1250.00,EUR,2025-06-27,Invoice 2025-0042,erp-payment-7731\r\n',
      },
    ],
  },
)

export const BatchInputContent = Type.Object({
  contentType: Type.Enum([BATCH_CONTENT_TYPES.json, BATCH_CONTENT_TYPES.csv]),
  recordCount: Type.Integer({ minimum: 0 }),
  size: Type.Integer({ minimum: 0, description: 'Bytes of the input: the JSON body, or the CSV file' }),
  checksum: Type.String({ description: 'SHA-256 of those bytes, hex' }),
  filename: Type.Optional(Type.String()),
})
export type BatchInputContent = Static<typeof BatchInputContent>

export const BatchResultSummary = Type.Object({
  total: Type.Integer({ minimum: 0 }),
  succeeded: Type.Integer({ minimum: 0, description: 'Records that became payments' }),
  failed: Type.Integer({ minimum: 0, description: 'Invalid records that were not skipped' }),
  skipped: Type.Integer({ minimum: 0, description: 'Records left out: invalid ones skipped (skipValidationErrors), or valid ones of a BATCH batch that created nothing' }),
})
export type BatchResultSummary = Static<typeof BatchResultSummary>

export const BATCH_STATUSES = ['CREATED', 'PROCESSING_STARTED', 'COMPLETED'] as const

export const CreditTransferBatch = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  externalId: Type.Optional(ExternalId),
  treatment: Type.Enum([...BATCH_TREATMENTS]),
  status: Type.Enum([...BATCH_STATUSES], {
    description: 'COMPLETED once its records are processed, which Kassa does within the request: a batch is served COMPLETED. Failures are in errors',
  }),
  input: Type.Object(
    { type: Type.Enum(['REQUEST_BODY', 'FILE']) },
    { description: 'How the records arrived: in the JSON body, or as a CSV file of a multipart/form-data upload' },
  ),
  inputContent: BatchInputContent,
  inputDetails: Type.Object({ skipValidationErrors: Type.Boolean() }, { description: 'How the records were to be processed, as requested' }),
  resultSummary: BatchResultSummary,
  errors: Type.Array(BatchError, { maxItems: MAX_BATCH_ERRORS, description: "The batch's own failures (empty when none); each record's are in its results" }),
  amount: Type.Optional(Amount),
  approvalSteps: Type.Array(ApprovalStep, { description: 'Treatment BATCH: the steps that approve all its payments at once; empty otherwise' }),
  creatorUserId: ResourceId,
  metadata: Metadata,
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type CreditTransferBatch = Static<typeof CreditTransferBatch>

/** reference §3.4 BatchResult: what became of one record. */
export const BatchResult = Type.Object({
  recordIndex: Type.Integer({ minimum: 0, description: 'The record\'s index in payments, or its row of the CSV file (the first row after the header is 0)' }),
  paymentId: Type.Optional(ResourceId),
  errors: Type.Array(BatchError),
  skipped: Type.Boolean(),
})
export type BatchResult = Static<typeof BatchResult>

export const BatchResultsQuery = Type.Object({
  ...ListQueryProperties,
  errors: Type.Optional(Type.Boolean({ description: 'true: only records with errors; false: only records without' })),
  skipped: Type.Optional(Type.Boolean({ description: 'true: only skipped records; false: only records not skipped' })),
})
export type BatchResultsQuery = Static<typeof BatchResultsQuery>
