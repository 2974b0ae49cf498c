import { createHash } from 'node:crypto'
import type { FastifyRequest, FastifySchemaCompiler } from 'fastify'
import type { Readable } from 'node:stream'
import stringify from 'safe-stable-stringify'
import { Type } from 'typebox'
import { absentBodyIsEmpty } from '../../http/absent-body.js'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { invalidField } from '../../http/errors.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { OptionalIfMatchHeaders, optionalIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { bankToday } from '../lifecycle/bank-date.js'
import { ApproveBody, RejectBody } from '../lifecycle/payment.schemas.js'
import { createBatchApprovalService } from './batch-approval.service.js'
import { csvRecords, jsonRecords } from './batch-records.js'
import { BATCH_FILE_LIMIT, BatchUpload, readBatchUpload } from './batch-upload.js'
import { createCreditTransferBatchQueries } from './credit-transfer-batch.queries.js'
import {
  BATCH_CONTENT_TYPES,
  BatchResult,
  BatchResultsQuery,
  CreateCreditTransferBatch,
  CreditTransferBatch,
  CreditTransferBatchEnvelope,
  CreditTransferBatchUploadForm,
  MAX_BATCH_RECORDS,
} from './credit-transfer-batch.schemas.js'
import { createCreditTransferBatchService, type NewBatch } from './credit-transfer-batch.service.js'

const tags = ['Credit transfer batches']
/** reference §3.4: create, list and get are v2beta; approve and reject are v2 (reference §3.3). */
const BASE = '/payments/v2beta/credit-transfer-batches'
const DECISIONS = '/payments/v2/credit-transfer-batches'

/**
 * A JSON body is validated as the batch's own fields (CreditTransferBatchEnvelope), its records one by one later
 * (batch-records.ts); a form arrives read and checked by its parser (batch-upload.ts). The route's body schemas
 * document both on the wire.
 */
function batchBodyValidator(app: ApiApp): FastifySchemaCompiler<unknown> {
  // Set by registerValidation before any route is added.
  const compile = app.validatorCompiler!
  return (route) => {
    if (route.httpPart !== 'body') return compile(route)
    const envelope = compile({ ...route, schema: CreditTransferBatchEnvelope }) as ReturnType<FastifySchemaCompiler<unknown>> & { errors?: unknown }
    const check = ((body: unknown) => {
      if (body instanceof BatchUpload) return true
      const valid = envelope(body)
      check.errors = envelope.errors
      return valid
    }) as typeof envelope
    return check
  }
}

function checksumOf(bytes: Buffer | string): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** The batch a request describes. @throws ApiError invalid_request (400: an unreadable CSV file), payload_too_large (413). */
function newBatchOf(body: BatchUpload | CreditTransferBatchEnvelope): NewBatch {
  if (body instanceof BatchUpload) {
    const records = csvRecords(body.file)
    const inputContent = { contentType: BATCH_CONTENT_TYPES.csv, recordCount: records.length, size: body.file.length, checksum: body.checksum }
    return { ...body.fields, records, inputContent: body.filename !== undefined ? { ...inputContent, filename: body.filename } : inputContent }
  }
  const { payments, treatment, skipValidationErrors = false, externalId, metadata } = body
  // The JSON input canonically serialized (keys sorted): the same records give the same size and checksum.
  const input = stringify(payments)
  const inputContent = { contentType: BATCH_CONTENT_TYPES.json, recordCount: payments.length, size: Buffer.byteLength(input), checksum: checksumOf(input) }
  return { treatment, skipValidationErrors, externalId, metadata, records: jsonRecords(payments), inputContent }
}

/** `onApproved` is told when payments become APPROVED, so submission to the bank starts at once. */
export function creditTransferBatchRoutes(app: ApiApp, onApproved: () => void): void {
  const service = createCreditTransferBatchService(bankToday, onApproved)
  const approvals = createBatchApprovalService(onApproved)
  const queries = createCreditTransferBatchQueries(app.database)

  // A scope of its own: multipart/form-data is accepted here beside JSON, and nowhere else. Its body schemas are per
  // content type, and Fastify validates a body of any other type against none: JSON Patch's type, the one other type
  // parsed (json-body.ts), is a 415 on a POST, so every body this route reads was validated.
  void app.register(async (scope: ApiApp) => {
    scope.addContentTypeParser('multipart/form-data', async (request: FastifyRequest, payload: Readable) => readBatchUpload(request.headers, payload))

    scope.post(
      BASE,
      {
        config: { permission: 'credit_transfers:create' },
        validatorCompiler: batchBodyValidator(scope),
        schema: {
          tags,
          summary: 'Create a credit transfer batch',
          description:
            `Up to ${MAX_BATCH_RECORDS.toLocaleString('en-US')} credit transfers at once, as JSON (payments: each a body of POST ` +
            `/payments/v2/credit-transfers) or as a multipart/form-data upload of a CSV file (field file, up to ${BATCH_FILE_LIMIT / 1024 / 1024} MiB, ` +
            'with the fields treatment, skipValidationErrors, externalId). Each record is validated as creating it alone would be; ' +
            "the answer is the batch, COMPLETED, with resultSummary; each record's payment or errors are at GET …/{id}/results. " +
            'INDIVIDUAL_PAYMENTS: valid records become payments, each with its own approval steps; invalid ones fail. BATCH: the ' +
            "payments share one source account (else 400) and wait in CREATED for the batch's approval steps, planned from every " +
            'approval chain its total or any one payment matches; an invalid record makes the batch create nothing unless ' +
            'skipValidationErrors is true, which skips invalid records (for either treatment) instead of failing them. A ' +
            'file that cannot be read as a whole (header, quoting, encoding) is a 400; more records than allowed a 413. ' +
            '409 external_id_taken when the externalId is used by another batch.',
          body: {
            content: {
              'application/json': { schema: CreateCreditTransferBatch },
              'multipart/form-data': { schema: CreditTransferBatchUploadForm },
            },
          },
          response: { 201: CreditTransferBatch, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
        },
      },
      async (request, reply) => {
        // A body schema per content type is not applied to a request with no body at all (Fastify matches none).
        if (request.body === undefined) throw invalidField('body', 'is required: JSON, or a multipart/form-data upload of a CSV file', 'required')
        const batch = newBatchOf(request.body as BatchUpload | CreditTransferBatchEnvelope)
        return reply.code(201).send(await service.create(commandContext(request, reply, 201), batch))
      },
    )
  })

  app.get(
    BASE,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: 'List credit transfer batches, newest first',
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(CreditTransferBatch), ...errorResponses(400, 403) },
      },
    },
    async (request) => queries.list(request.actor!, request.query),
  )

  app.get(
    `${BASE}/:id`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: 'Get a credit transfer batch by id or external:{externalId}',
        description: 'Its payments are listed by GET /payments/v2/credit-transfers?batchId={id}.',
        params: IdParams,
        response: { 200: CreditTransferBatch, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.get(
    `${BASE}/:id/results`,
    {
      config: { permission: 'credit_transfers:read' },
      schema: {
        tags,
        summary: "The batch's results, one per record, in record order",
        description: 'Each record: its recordIndex, the payment made from it (paymentId), its errors, and whether it was skipped. Filters: errors, skipped.',
        params: IdParams,
        querystring: BatchResultsQuery,
        response: { 200: ListEnvelope(BatchResult), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => queries.results(request.actor!, parseResourceRef(request.params.id), request.query),
  )

  app.post(
    `${DECISIONS}/:id(^.+)::approve`,
    {
      config: { permission: 'credit_transfers:update' },
      schema: {
        tags,
        summary: 'Approve one approval step of a batch of treatment BATCH',
        description:
          "As approving a payment's step: the step's role or user, not its creator unless the step allows it, one user per chain, " +
          "and a TOTP sign-in where the organization requires it (403 otherwise). The last step approves every payment of the batch still " +
          'CREATED at once, and they go to the bank. 409 for treatment INDIVIDUAL_PAYMENTS, or a batch already approved or rejected. If-Match is optional.',
        params: IdParams,
        headers: OptionalIfMatchHeaders,
        body: ApproveBody,
        response: { 202: CreditTransferBatch, ...errorResponses(400, 403, 404, 409, 412, 422, 425) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(await approvals.approve(commandContext(request, reply, 202), parseResourceRef(request.params.id), request.body.approvalStepId, optionalIfMatch(request))),
  )

  app.post(
    `${DECISIONS}/:id(^.+)::reject`,
    {
      config: { permission: 'credit_transfers:update' },
      preValidation: absentBodyIsEmpty,
      schema: {
        tags,
        summary: 'Reject a batch of treatment BATCH awaiting approval, and its payments',
        description:
          'Final: every payment of the batch still CREATED becomes REJECTED, with the reason as its statusReason (code CUST). ' +
          'Needs no approver role, as rejecting a payment does. 409 for treatment INDIVIDUAL_PAYMENTS, or a batch already approved or rejected. If-Match is optional.',
        params: IdParams,
        headers: OptionalIfMatchHeaders,
        body: Type.Optional(RejectBody),
        response: { 202: CreditTransferBatch, ...errorResponses(400, 403, 404, 409, 412, 422, 425) },
      },
    },
    async (request, reply) =>
      reply.code(202).send(await approvals.reject(commandContext(request, reply, 202), parseResourceRef(request.params.id), request.body, optionalIfMatch(request))),
  )
}
