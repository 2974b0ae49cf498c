import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createStatementExportService } from './statement-export.service.js'
import { MAX_STATEMENT_DAYS, StatementExportQuery } from './statement-export.schemas.js'

const tags = ['Statements']

export function statementExportRoutes(app: ApiApp): void {
  const service = createStatementExportService(app.database)

  app.get(
    '/financial-data/v2/accounts/:id/statement',
    {
      config: { permission: 'accounts:read' },
      schema: {
        tags,
        summary: "An account's statement as camt.053.001.08",
        description:
          'The ISO 20022 bank-to-customer statement of the booking days from through to (both included, at most ' +
          `${MAX_STATEMENT_DAYS} days: the document is built whole, and the range bounds its size), as an ERP imports a ` +
          "bank's: the booked balance at the end of the day before from (OPBD) and at the end of to (CLBD), the same " +
          'figures as GET …/balances, and every booked transaction as an entry with its references, counterparty, ' +
          'remittance and the end-to-end ids of the payments reconciled to it. Valid against the camt.053.001.08 XSD. ' +
          '{id} is the account id or external:{externalId}. Needs transactions:read and account_balances:read too.',
        params: IdParams,
        querystring: StatementExportQuery,
        response: {
          200: { description: 'The camt.053.001.08 document', content: { 'application/xml': { schema: Type.String() } } },
          ...errorResponses(400, 403, 404),
        },
      },
    },
    async (request, reply) =>
      reply.type('application/xml; charset=utf-8').send(await service.camt053(request.actor!, parseResourceRef(request.params.id), request.query)),
  )
}
