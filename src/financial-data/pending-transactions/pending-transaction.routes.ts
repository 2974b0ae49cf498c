import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { ListEnvelope, ListQueryProperties } from '../../http/pagination.js'
import { errorResponses } from '../../http/route-schemas.js'
import { Event } from '../../events/index.js'
import { IdParams } from '../../shared/common.schemas.js'
import { transactionId } from '../transactions/transaction.routes.js'
import { createPendingTransactionService } from './pending-transaction.service.js'
import { PendingTransaction, PendingTransactionListQuery } from './pending-transaction.schemas.js'

const tags = ['Pending transactions']

/** Read-only: a bank's reports make and end them (financial-data/bookings/pending-entries.ts). Permission as transactions'. */
export function pendingTransactionRoutes(app: ApiApp): void {
  const service = createPendingTransactionService(app.database)

  app.get(
    '/financial-data/v2/pending-transactions',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: 'List pending transactions, newest first',
        description:
          'Entries the bank shows but has not booked, newest provisional date first: by default those still PENDING; ' +
          'status=BOOKED or WITHDRAWN lists the ended ones. Filters: accountId, currency, status; date (or date[eq]) for ' +
          'one day, date[gte] and date[lte] for a range. An inverted range is a 400.',
        querystring: PendingTransactionListQuery,
        response: { 200: ListEnvelope(PendingTransaction), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/financial-data/v2/pending-transactions/:id',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: 'Get a pending transaction',
        description: 'By its Kassa id (a UUID), also once it ended: BOOKED names the booked transaction (bookedTransactionId).',
        params: IdParams,
        response: { 200: PendingTransaction, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, transactionId(request.params.id)),
  )

  app.get(
    '/financial-data/v2/pending-transactions/:id/events',
    {
      config: { permission: 'transactions:read' },
      schema: {
        tags,
        summary: "The pending transaction's events, oldest first",
        description:
          'CREATED when the bank first shows the entry; UPDATED when it reports it otherwise (another amount or ' +
          'provisional date); then BOOKED when the booked entry with the same entry reference arrives, or WITHDRAWN ' +
          '(with the reason as message) when the bank drops it. Originator BANK; each gives the version after it.',
        params: IdParams,
        querystring: Type.Object(ListQueryProperties),
        response: { 200: ListEnvelope(Event), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.events(request.actor!, transactionId(request.params.id), request.query),
  )
}
