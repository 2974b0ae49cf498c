import type { ApiApp } from '../../http/api-app.js'
import { ListEnvelope } from '../../http/pagination.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createAccountService } from './account.service.js'
import { Account, AccountListQuery } from './account.schemas.js'

const tags = ['Accounts']

export function accountRoutes(app: ApiApp): void {
  const service = createAccountService(app.database)

  app.get(
    '/financial-data/v2/accounts',
    {
      config: { permission: 'accounts:read' },
      schema: {
        tags,
        summary: "List the organization's own bank accounts",
        querystring: AccountListQuery,
        response: { 200: ListEnvelope(Account), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/financial-data/v2/accounts/:id',
    {
      config: { permission: 'accounts:read' },
      schema: {
        tags,
        summary: 'Get an own bank account',
        params: IdParams,
        response: { 200: Account, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )
}
