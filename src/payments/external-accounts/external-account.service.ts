import type { Database } from '../../db/database.js'
import { recordEvent } from '../../events/index.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { requireLive } from '../../shared/lookup.js'
import { lostRace } from '../../shared/lost-race.js'
import { externalAccountRepo, toExternalAccount } from './external-account.repo.js'
import {
  EXTERNAL_ACCOUNT_PATCH_RULES,
  ExternalAccountEditable,
  type ExternalAccount,
  type ExternalAccountListQuery,
} from './external-account.schemas.js'

export const EXTERNAL_ACCOUNTS = 'external_accounts'
const applyPatch = createPatcher(ExternalAccountEditable, EXTERNAL_ACCOUNT_PATCH_RULES)

export function createExternalAccountService(database: Database) {
  return {
    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, ref: ResourceRef): Promise<ExternalAccount> {
      const row = await externalAccountRepo.find(database.db, actor.organizationId, ref)
      return toExternalAccount(requireLive(row, 'external account', ref))
    },

    /** @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: ExternalAccountListQuery): Promise<ListEnvelopeOf<ExternalAccount>> {
      // Ids are stored in lower case; a path id may come in either case (RFC 9562), so may this one.
      const filters = { counterpartyId: query.counterpartyId?.toLowerCase() }
      const page = pageRequest(query, EXTERNAL_ACCOUNTS, filters, ['text'])
      const rows = await externalAccountRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toExternalAccount)
    },

    /**
     * Applies a JSON Patch (alias, metadata) if `etag` is current.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<ExternalAccount> {
      return ctx.transaction(async (trx) => {
        const current = toExternalAccount(
          requireLive(await externalAccountRepo.find(trx, ctx.actor.organizationId, ref), 'external account', ref),
        )
        assertEtag(etag, current.etag)
        const patched = applyPatch({ alias: current.alias, metadata: current.metadata }, operations)
        const changes = {
          alias: patched.alias ?? null,
          metadata: JSON.stringify(patched.metadata),
          version: current.version + 1,
          updated: nowIso(),
        }
        if (!(await externalAccountRepo.update(trx, current.id, current.version, changes))) {
          await lostRace(() => externalAccountRepo.find(trx, ctx.actor.organizationId, ref), 'external account', ref)
        }
        const updated = toExternalAccount(requireLive(await externalAccountRepo.find(trx, ctx.actor.organizationId, ref), 'external account', ref))
        await recordEvent(trx, {
          organizationId: ctx.actor.organizationId,
          entityType: EXTERNAL_ACCOUNTS,
          entityId: updated.id,
          type: 'UPDATED',
          name: 'UPDATED',
          originator: ctx.actor.userId,
          entity: updated,
        })
        return updated
      })
    },
  }
}

export type ExternalAccountService = ReturnType<typeof createExternalAccountService>
