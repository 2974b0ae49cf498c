import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createExternalAccountService } from './external-account.service.js'
import { EXTERNAL_ACCOUNT_PATCH_RULES, ExternalAccount, ExternalAccountListQuery, ExternalAccountPatchBody } from './external-account.schemas.js'

const tags = ['External accounts']

export function externalAccountRoutes(app: ApiApp): void {
  const service = createExternalAccountService(app.database)

  app.get(
    '/payments/v2/external-accounts',
    {
      config: { permission: 'external_accounts:read' },
      schema: {
        tags,
        summary: 'List external accounts, newest first',
        description: "The live external accounts of the organization's counterparties; counterpartyId keeps one counterparty's.",
        querystring: ExternalAccountListQuery,
        response: { 200: ListEnvelope(ExternalAccount), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/payments/v2/external-accounts/:id',
    {
      config: { permission: 'external_accounts:read' },
      schema: {
        tags,
        summary: 'Get an external account by id or external:{externalId}',
        description: 'Its id is what a credit transfer names as destination.id. 410 Gone once its counterparty was deleted.',
        params: IdParams,
        response: { 200: ExternalAccount, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.patch(
    '/payments/v2/external-accounts/:id',
    {
      config: { permission: 'external_accounts:update' },
      schema: {
        tags,
        summary: 'Update an external account with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(EXTERNAL_ACCOUNT_PATCH_RULES)}; the account's identifiers never change. ` +
          'Requires If-Match.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: ExternalAccountPatchBody,
        response: { 200: ExternalAccount, ...errorResponses(400, 403, 404, 410, 412, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )
}
