import type { Database, Executor } from '../../db/database.js'
import type { ApprovalChainsTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { Actor } from '../../iam/actor.js'
import { recordAuditEntry } from '../../iam/index.js'
import { roleRepo } from '../../iam/roles/role.repo.js'
import { userRepo } from '../../iam/users/user.repo.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { approvalChainRepo, definitionColumns, editableOf, toApprovalChain } from './approval-chain.repo.js'
import {
  APPROVAL_CHAIN_PATCH_RULES,
  ApprovalChainEditable,
  type ApprovalChain,
  type ApprovalChainListQuery,
  type CreateApprovalChain,
} from './approval-chain.schemas.js'
import { chainDefinition, type ChainDefinition, type Reference } from './approval-chain.validation.js'

export const APPROVAL_CHAINS = 'approval_chains'
const applyPatch = createPatcher(ApprovalChainEditable, APPROVAL_CHAIN_PATCH_RULES)

/**
 * The first reference whose id `live` does not hold, as a 400 naming its field.
 * @throws ApiError invalid_request (400).
 */
function assertAllLive(references: Reference[], live: ReadonlySet<string>, what: string): void {
  const missing = references.find((reference) => !live.has(reference.id))
  if (missing) throw invalidField(missing.field, `is not ${what} of this organization`)
}

/**
 * Checks the roles, users and accounts a chain names against the organization. Roles and users stay
 * locked until the transaction ends, so none of them is deleted while the chain that needs it is saved.
 * @throws ApiError invalid_request (400) naming the field.
 */
async function checkReferences(trx: Executor, organizationId: string, input: CreateApprovalChain): Promise<ChainDefinition> {
  const { definition, references } = chainDefinition(input)
  const unique = (list: Reference[]) => [...new Set(list.map((reference) => reference.id))]
  const roles = await roleRepo.lockLive(trx, organizationId, unique(references.roles))
  assertAllLive(references.roles, new Set(roles.map((role) => role.id)), 'a role')
  const users = await userRepo.lockLive(trx, organizationId, unique(references.users))
  assertAllLive(references.users, new Set(users.map((user) => user.id)), 'a user')
  const { currency } = definition.trigger
  for (const reference of [...references.accountsIn, ...references.accountsNotIn]) {
    const account = await accountRepo.find(trx, organizationId, { id: reference.id })
    if (!account) throw invalidField(reference.field, 'is not an account of this organization')
    if (currency !== undefined && account.currency !== currency && references.accountsIn.includes(reference)) {
      throw invalidField(reference.field, `is a ${account.currency} account, but the chain applies only to ${currency} payments`)
    }
  }
  return definition
}

export function createApprovalChainService(database: Database) {
  async function load(db: Executor, organizationId: string, id: string): Promise<ApprovalChainsTable> {
    return requireLive(await approvalChainRepo.find(db, organizationId, id), 'approval chain', { id })
  }

  return {
    /**
     * Creates a chain; it applies to payments created from now on.
     * @throws ApiError invalid_request (400) naming the field at fault.
     */
    async create(ctx: CommandContext, input: CreateApprovalChain): Promise<ApprovalChain> {
      const { organizationId } = ctx.actor
      return ctx.transaction(async (trx) => {
        const definition = await checkReferences(trx, organizationId, input)
        const now = nowIso()
        const row: ApprovalChainsTable = {
          id: newId(),
          organization_id: organizationId,
          name: input.name,
          ...definitionColumns(definition),
          version: 1,
          created: now,
          updated: now,
          deleted_at: null,
        }
        await approvalChainRepo.insert(trx, row)
        const chain = toApprovalChain(row)
        await recordEvent(trx, { organizationId, entityType: APPROVAL_CHAINS, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: chain })
        await recordAuditEntry(trx, ctx, { action: 'approval_chains.create', resourceType: APPROVAL_CHAINS, resourceId: row.id, after: chain })
        return chain
      })
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, id: string): Promise<ApprovalChain> {
      return toApprovalChain(await load(database.db, actor.organizationId, id))
    },

    /** Live chains, oldest first: the order their steps are added to a payment. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: ApprovalChainListQuery): Promise<ListEnvelopeOf<ApprovalChain>> {
      const page = pageRequest(query, APPROVAL_CHAINS, {}, ['text'])
      const rows = await approvalChainRepo.list(database.db, actor.organizationId, page)
      return pageOf(rows, page, (row) => [row.id], toApprovalChain)
    },

    /**
     * Applies a JSON Patch if `etag` is current; the result is validated as a new chain would be.
     * Payments created before keep the steps they were given.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400),
     * invalid_request (400 naming the field).
     */
    async update(ctx: CommandContext, id: string, etag: string, operations: JsonPatchOperation[]): Promise<ApprovalChain> {
      const { organizationId } = ctx.actor
      return ctx.transaction(async (trx) => {
        const current = await load(trx, organizationId, id)
        assertEtag(etag, etagOf(current.version))
        const patched = applyPatch(editableOf(current), operations)
        const definition = await checkReferences(trx, organizationId, patched)
        const changes = { name: patched.name, ...definitionColumns(definition), version: current.version + 1, updated: nowIso() }
        if (!(await approvalChainRepo.update(trx, id, current.version, changes))) {
          await load(trx, organizationId, id)
          throw new ApiError('precondition_failed', 'The approval chain changed while this request ran; fetch it again')
        }
        const chain = toApprovalChain({ ...current, ...changes })
        await recordEvent(trx, { organizationId, entityType: APPROVAL_CHAINS, entityId: id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity: chain })
        await recordAuditEntry(trx, ctx, { action: 'approval_chains.update', resourceType: APPROVAL_CHAINS, resourceId: id, before: toApprovalChain(current), after: chain })
        return chain
      })
    },

    /**
     * Deletes a chain (softly: afterwards it answers 410); payments created before keep its steps.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412: `etag` is stale).
     */
    async remove(ctx: CommandContext, id: string, etag: string): Promise<void> {
      const { organizationId } = ctx.actor
      await ctx.transaction(async (trx) => {
        const current = await load(trx, organizationId, id)
        const row = await approvalChainRepo.markDeleted(trx, id, nowIso())
        if (!row) {
          await load(trx, organizationId, id)
          throw new ApiError('gone', `The approval chain ${id} was deleted`)
        }
        assertEtag(etag, etagOf(row.version - 1))
        await recordEvent(trx, { organizationId, entityType: APPROVAL_CHAINS, entityId: id, type: 'DELETED', name: 'DELETED', originator: ctx.actor.userId, entity: toApprovalChain(row) })
        await recordAuditEntry(trx, ctx, { action: 'approval_chains.delete', resourceType: APPROVAL_CHAINS, resourceId: id, before: toApprovalChain(current) })
      })
    },
  }
}
