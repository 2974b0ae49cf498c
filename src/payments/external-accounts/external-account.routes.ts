import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import type { AccountHolders } from './account-holders.js'
import { createExternalAccountService } from './external-account.service.js'
import {
  CreateExternalAccount,
  EXTERNAL_ACCOUNT_PATCH_RULES,
  ExternalAccount,
  ExternalAccountListQuery,
  ExternalAccountPatchBody,
} from './external-account.schemas.js'

const tags = ['External accounts']

export function externalAccountRoutes(app: ApiApp, holders: AccountHolders): void {
  const service = createExternalAccountService(app.database, holders)

  app.post(
    '/payments/v2/external-accounts',
    {
      config: { permission: 'external_accounts:create' },
      schema: {
        tags,
        summary: 'Add an external account to a counterparty',
        description:
          'The account is checked as the accounts a counterparty is created with are: IBANs by checksum and country ' +
          'format, stored in electronic form. counterpartyId names a live counterparty of the organization (400 ' +
          'otherwise); it lists the new account, so its version and etag move on and it records the event ' +
          'EXTERNAL_ACCOUNT_ADDED. 409 external_id_taken when the externalId is already used by an external account ' +
          'of the organization, a deleted one included; 409 conflict when the counterparty already has 25 accounts.',
        body: CreateExternalAccount,
        response: { 201: ExternalAccount, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const account = await service.create(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(account)
    },
  )

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
        description: 'Its id is what a credit transfer names as destination.id. 410 Gone once it or its counterparty was deleted.',
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
          "Requires If-Match. The counterparty lists the account, so its version moves on too (event EXTERNAL_ACCOUNT_UPDATED).",
        params: IdParams,
        headers: IfMatchHeaders,
        body: ExternalAccountPatchBody,
        response: { 200: ExternalAccount, ...errorResponses(400, 403, 404, 410, 412, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )

  app.delete(
    '/payments/v2/external-accounts/:id',
    {
      config: { permission: 'external_accounts:delete' },
      schema: {
        tags,
        summary: 'Delete an external account',
        description:
          'Afterwards it answers 410 Gone, and its counterparty, whose version moves on (event ' +
          'EXTERNAL_ACCOUNT_DELETED), no longer lists it; its externalId stays taken. Requires If-Match. 409 conflict ' +
          'while a payment to or from it is in progress (not yet REJECTED, CANCELLED, FAILED, RETURNED or ' +
          'RECONCILED) or a mandate to collect from it is not CANCELLED.',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 409, 410, 412, 428) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), parseResourceRef(request.params.id), requireIfMatch(request))
      return reply.code(204).send(null)
    },
  )
}
