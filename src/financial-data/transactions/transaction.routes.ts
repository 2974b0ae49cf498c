import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { invalidField } from '../../http/errors.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { errorResponses } from '../../http/route-schemas.js'
import { sendJson } from '../../http/serialize-once.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { isUuid } from '../../shared/ids.js'
import { createTransactionService } from './transaction.service.js'
import { TRANSACTION_PATCH_RULES, Transaction, TransactionListQuery, TransactionPatchBody } from './transaction.schemas.js'

const tags = ['Transactions']

/** Transactions are the bank's records: addressed by Kassa id only (they carry no externalId). @throws ApiError (400) */
export function transactionId(segment: string): string {
  if (!isUuid(segment)) throw invalidField('id', 'must be a UUID')
  return segment.toLowerCase()
}

export function transactionRoutes(app: ApiApp): void {
  const service = createTransactionService(app.database)

  app.get(
    '/financial-data/v2/transactions',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: 'List booked transactions, newest first',
        description:
          'Newest booking date first. Filters: accountId, currency, reconciliationStatus; date (or date[eq]) for one day, ' +
          'date[gte] and date[lte] for a range; amount[gte] and amount[lte] in signed minor units (money out is ' +
          'negative). An inverted range is a 400.',
        querystring: TransactionListQuery,
        response: { 200: ListEnvelope(Transaction), ...errorResponses(400, 403) },
      },
    },
    async (request, reply) => sendJson(reply, await service.list(request.actor!, request.query)),
  )

  app.get(
    '/financial-data/v2/transactions/:id',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: 'Get a transaction',
        description: "By its Kassa id (a UUID): transactions are the bank's records and carry no externalId.",
        params: IdParams,
        response: { 200: Transaction, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, transactionId(request.params.id)),
  )

  app.patch(
    '/financial-data/v2/transactions/:id',
    {
      config: { permission: 'transactions:update' },
      schema: {
        tags,
        summary: "Update a transaction's metadata with a JSON Patch",
        description: `Allowed operations: ${describeRules(TRANSACTION_PATCH_RULES)}. Requires If-Match.`,
        params: IdParams,
        headers: IfMatchHeaders,
        body: TransactionPatchBody,
        response: { 200: Transaction, ...errorResponses(400, 403, 404, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), transactionId(request.params.id), requireIfMatch(request), request.body),
  )

  app.get(
    '/financial-data/v2/transactions/:id/events',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: "The transaction's events, oldest first",
        description:
          "The transaction's history: BOOKED (type CREATED) when the bank books it, RECONCILED or PARTIALLY_RECONCILED " +
          'when a payment is matched to it (by the bank or by hand, :attach), DETACHED when one is detached by hand ' +
          '(:detach), UPDATED when its metadata changes; each event gives the version of the transaction after it.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, transactionId(request.params.id), request.query),
  )
}
