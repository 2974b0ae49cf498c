import type { ApiApp } from '../../http/api-app.js'
import { invalidField } from '../../http/errors.js'
import { ListEnvelope } from '../../http/pagination.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { isUuid } from '../../shared/ids.js'
import { createBalanceService } from './balance.service.js'
import { AccountBalanceListQuery, Balance, BalanceListQuery } from './balance.schemas.js'

const tags = ['Balances']

function uuidParam(segment: string, field: string): string {
  if (!isUuid(segment)) throw invalidField(field, 'must be a UUID')
  return segment.toLowerCase()
}

export function balanceRoutes(app: ApiApp): void {
  const service = createBalanceService(app.database)

  app.get(
    '/financial-data/v2/balances',
    {
      config: { permission: 'account_balances:read' },
      schema: {
        tags,
        summary: 'List balances, newest day first',
        description:
          'Balances of every own account, or of one with accountId (404 when the organization has no such account). ' +
          'Filters: type (BOOKED, AVAILABLE), reportedType (OPEN, CLOSE, INTERIM), date[gte] and date[lte] on the ' +
          "account's local date; mostRecent=true keeps only the latest balance of each account and type. A later " +
          'report of the same account, type, reported type and day replaces the earlier one (its version grows).',
        querystring: BalanceListQuery,
        response: { 200: ListEnvelope(Balance), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { accountId, ...query } = request.query
      return service.list(request.actor!, query, accountId)
    },
  )

  app.get(
    '/financial-data/v2/balances/:id',
    {
      config: { permission: 'account_balances:read' },
      schema: {
        tags,
        summary: 'Get a balance',
        description: 'By its id (a UUID). 404 when the organization has no such balance.',
        params: IdParams,
        response: { 200: Balance, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, uuidParam(request.params.id, 'id')),
  )

  app.get(
    '/financial-data/v2/accounts/:id/balances',
    {
      config: { permission: 'account_balances:read' },
      schema: {
        tags,
        summary: "An account's balances, newest day first; {id} '-' means every account",
        description:
          'As GET /financial-data/v2/balances with accountId: the same filters and order. {id} is an account id (404 when ' +
          'the organization has no such account), or - for every account.',
        params: IdParams,
        querystring: AccountBalanceListQuery,
        response: { 200: ListEnvelope(Balance), ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => {
      const { id } = request.params
      return service.list(request.actor!, request.query, id === '-' ? undefined : uuidParam(id, 'id'))
    },
  )
}
