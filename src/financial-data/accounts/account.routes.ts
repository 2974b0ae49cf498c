import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { parseResourceRef } from '../../http/resource-ref.js'
import { errorResponses } from '../../http/route-schemas.js'
import { IdParams } from '../../shared/common.schemas.js'
import { createAccountService } from './account.service.js'
import { ACCOUNT_PATCH_RULES, Account, AccountListQuery, AccountPatchBody, CreateAccount } from './account.schemas.js'

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
        description:
          'Oldest first. Filters: currency; identifier — an account number such as an IBAN, matched with spaces and ' +
          'case ignored (spec: Typical flow 2, finding the source account of a payment); entityId, the accounts of one entity.',
        querystring: AccountListQuery,
        response: { 200: ListEnvelope(Account), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.post(
    '/financial-data/v2/accounts',
    {
      config: { permission: 'accounts:create' },
      schema: {
        tags,
        summary: 'Register an own account held at a real bank',
        description:
          'Its transactions and balances then come from statements imported at /financial-data/v2/statements, matched by ' +
          'IBAN: 409 conflict when an account of the organization already has the IBAN, 409 external_id_taken when ' +
          "the externalId is. It belongs to the entity entityId names (400 unless a live entity of the organization), by " +
          "default to the organization's default entity: its oldest live entity without a parent.",
        body: CreateAccount,
        response: { 201: Account, ...errorResponses(400, 403, 409, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.create(commandContext(request, reply, 201), request.body)),
  )

  app.get(
    '/financial-data/v2/accounts/:id',
    {
      config: { permission: 'accounts:read' },
      schema: {
        tags,
        summary: 'Get an own bank account',
        description: '{id} is the account id or external:{externalId}. 404 when the organization has no such account.',
        params: IdParams,
        response: { 200: Account, ...errorResponses(400, 403, 404) },
      },
    },
    async (request) => service.get(request.actor!, parseResourceRef(request.params.id)),
  )

  app.patch(
    '/financial-data/v2/accounts/:id',
    {
      config: { permission: 'accounts:update' },
      schema: {
        tags,
        summary: "Update an account's alias, metadata and entity with a JSON Patch",
        description:
          `Allowed operations: ${describeRules(ACCOUNT_PATCH_RULES)}. A new entityId must name a live entity of the ` +
          'organization (400 otherwise); the affiliationId follows it. Requires If-Match.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: AccountPatchBody,
        response: { 200: Account, ...errorResponses(400, 403, 404, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), parseResourceRef(request.params.id), requireIfMatch(request), request.body),
  )
}
