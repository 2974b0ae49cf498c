import { Type } from 'typebox'
import type { ApiApp } from '../../http/api-app.js'
import { commandContext } from '../../http/command-context.js'
import { describeRules } from '../../http/json-patch.js'
import { ListEnvelope } from '../../http/pagination.js'
import { IfMatchHeaders, requireIfMatch } from '../../http/preconditions.js'
import { NoContent, errorResponses } from '../../http/route-schemas.js'
import { ResourceId } from '../../shared/common.schemas.js'
import { createApprovalChainService } from './approval-chain.service.js'
import {
  APPROVAL_CHAIN_PATCH_RULES,
  ApprovalChain,
  ApprovalChainListQuery,
  ApprovalChainPatchBody,
  CreateApprovalChain,
} from './approval-chain.schemas.js'

const tags = ['Approval chains']
const ChainParams = Type.Object({ id: ResourceId })

const RULES =
  'At creation a payment gets the steps of every live chain whose trigger matches it, in chain order; when none ' +
  'matches, the Owner must approve. The creator may not approve a step unless it allows creator approval, and one ' +
  'user may not approve two steps of one chain. Changes apply to payments created afterwards only.'

/** Approval chains are a payments concept (spec: Approval rules) served with the other settings under /iam/v2. */
export function approvalChainRoutes(app: ApiApp): void {
  const service = createApprovalChainService(app.database)

  app.post(
    '/iam/v2/approval-chains',
    {
      config: { permission: 'approval_chains:create' },
      schema: {
        tags,
        summary: 'Create an approval chain',
        description: `${RULES} Roles, users and accounts named must belong to the organization.`,
        body: CreateApprovalChain,
        response: { 201: ApprovalChain, ...errorResponses(400, 403, 413, 415, 422, 425) },
      },
    },
    async (request, reply) => {
      const chain = await service.create(commandContext(request, reply, 201), request.body)
      return reply.code(201).send(chain)
    },
  )

  app.get(
    '/iam/v2/approval-chains',
    {
      config: { permission: 'approval_chains:read' },
      schema: {
        tags,
        summary: 'List live approval chains, oldest first (the order their steps are added to a payment)',
        description: `Deleted chains are not listed. ${RULES}`,
        querystring: ApprovalChainListQuery,
        response: { 200: ListEnvelope(ApprovalChain), ...errorResponses(400, 403) },
      },
    },
    async (request) => service.list(request.actor!, request.query),
  )

  app.get(
    '/iam/v2/approval-chains/:id',
    {
      config: { permission: 'approval_chains:read' },
      schema: {
        tags,
        summary: 'Get an approval chain',
        description: 'With its trigger and steps, amounts in minor units. 410 Gone once the chain was deleted.',
        params: ChainParams,
        response: { 200: ApprovalChain, ...errorResponses(400, 403, 404, 410) },
      },
    },
    async (request) => service.get(request.actor!, request.params.id.toLowerCase()),
  )

  app.patch(
    '/iam/v2/approval-chains/:id',
    {
      config: { permission: 'approval_chains:update' },
      schema: {
        tags,
        summary: 'Update an approval chain with a JSON Patch',
        description:
          `Allowed operations: ${describeRules(APPROVAL_CHAIN_PATCH_RULES)}. The patch applies to the chain as its create ` +
          'request would state it (amounts as {currency, value}); the result is validated as a new chain. Requires If-Match. ' +
          'Payments created before keep their steps.',
        params: ChainParams,
        headers: IfMatchHeaders,
        body: ApprovalChainPatchBody,
        response: { 200: ApprovalChain, ...errorResponses(400, 403, 404, 410, 412, 415, 422, 425, 428) },
      },
    },
    async (request, reply) =>
      service.update(commandContext(request, reply, 200), request.params.id.toLowerCase(), requireIfMatch(request), request.body),
  )

  app.delete(
    '/iam/v2/approval-chains/:id',
    {
      config: { permission: 'approval_chains:delete' },
      schema: {
        tags,
        summary: 'Delete an approval chain',
        description:
          'It no longer applies to new payments; payments created before keep its steps. Afterwards it answers 410 Gone. ' +
          'Requires If-Match.',
        params: ChainParams,
        headers: IfMatchHeaders,
        response: { 204: NoContent, ...errorResponses(400, 403, 404, 410, 412, 428) },
      },
    },
    async (request, reply) => {
      await service.remove(commandContext(request, reply, 204), request.params.id.toLowerCase(), requireIfMatch(request))
      return reply.code(204).send(null)
    },
  )
}
