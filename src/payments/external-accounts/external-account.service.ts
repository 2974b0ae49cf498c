import type { Database, Executor } from '../../db/database.js'
import type { ExternalAccountsTable } from '../../db/schema.js'
import { isUniqueViolation, violatedTable } from '../../db/errors.js'
import { runTogether } from '../../db/prepared-query.js'
import { recordEvent } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { requireLive } from '../../shared/lookup.js'
import { lostRace } from '../../shared/lost-race.js'
import { MAX_ACCOUNTS_PER_COUNTERPARTY } from '../counterparties/counterparty.schemas.js'
import { paymentRepo } from '../lifecycle/payment.repo.js'
import { UNSETTLED_STATUSES } from '../lifecycle/payment-status.js'
import { mandateRepo } from '../mandates/mandate.repo.js'
import type { AccountHolders } from './account-holders.js'
import { externalAccountRepo, toExternalAccount, type ScopedExternalAccountRow } from './external-account.repo.js'
import {
  EXTERNAL_ACCOUNT_PATCH_RULES,
  ExternalAccountEditable,
  type CreateExternalAccount,
  type ExternalAccount,
  type ExternalAccountListQuery,
} from './external-account.schemas.js'
import { newExternalAccountRow } from './new-external-account.js'

export const EXTERNAL_ACCOUNTS = 'external_accounts'
const applyPatch = createPatcher(ExternalAccountEditable, EXTERNAL_ACCOUNT_PATCH_RULES)

const PAYMENT_NOUNS = { CREDIT_TRANSFER: 'credit transfer', DIRECT_DEBIT: 'direct debit' } as const

/**
 * An account stays while something may still move money through it: a payment to or from it that is not
 * settled (payment-status.ts isSettled), or a mandate to collect from it that is not CANCELLED.
 * @throws ApiError conflict (409) naming the first such payment or mandate.
 */
async function assertUnused(trx: Executor, account: ExternalAccountsTable): Promise<void> {
  const payment = await paymentRepo.firstOfExternalAccountIn(trx, account.organization_id, account.id, UNSETTLED_STATUSES)
  if (payment) {
    throw new ApiError(
      'conflict',
      `The external account is used by ${PAYMENT_NOUNS[payment.kind]} ${payment.id}, which is ${payment.status}; ` +
        'it can be deleted once no payment in progress uses it (REJECTED, CANCELLED, FAILED, RETURNED or RECONCILED)',
    )
  }
  const mandate = await mandateRepo.firstUsableOfExternalAccount(trx, account.organization_id, account.id)
  if (mandate) {
    throw new ApiError('conflict', `The external account has the ${mandate.status} mandate ${mandate.id}; cancel the mandate first`)
  }
}

/** The entity_ids of the account's counterparty as they are now: read after the counterparty was locked, so current. */
async function counterpartyEntityIds(trx: Executor, organizationId: string, id: string): Promise<string> {
  return (await externalAccountRepo.find(trx, organizationId, { id }))!.counterparty_entity_ids
}

export function createExternalAccountService(database: Database, holders: AccountHolders) {
  /** The live account `ref` with its counterparty locked for a change of its accounts. @throws ApiError not_found (404), gone (410). */
  async function findForChange(trx: Executor, organizationId: string, ref: ResourceRef): Promise<ScopedExternalAccountRow> {
    const row = requireLive(await externalAccountRepo.find(trx, organizationId, ref), 'external account', ref)
    // A live account's counterparty is live: deleting it deletes its accounts. Unless that just happened.
    if (!(await holders.lockForAccountChange(trx, organizationId, row.counterparty_id))) {
      await lostRace(() => externalAccountRepo.find(trx, organizationId, ref), 'external account', ref)
    }
    return row
  }

  return {
    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, ref: ResourceRef): Promise<ExternalAccount> {
      const row = requireLive(await externalAccountRepo.find(database.db, actor.organizationId, ref), 'external account', ref)
      return toExternalAccount(row, row.counterparty_entity_ids)
    },

    /** @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: ExternalAccountListQuery): Promise<ListEnvelopeOf<ExternalAccount>> {
      // Ids are stored in lower case; a path id may come in either case (RFC 9562), so may this one.
      const filters = { counterpartyId: query.counterpartyId?.toLowerCase(), entityIdsIn: query.entityIdsIn?.map((id) => id.toLowerCase()) }
      const page = pageRequest(query, EXTERNAL_ACCOUNTS, filters, ['text'])
      const rows = await externalAccountRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], (row) => toExternalAccount(row, row.counterparty_entity_ids))
    },

    /**
     * Adds an account to a live counterparty of the organization: its CREATED event, and the counterparty's
     * EXTERNAL_ACCOUNT_ADDED (the counterparty lists its accounts, so its version moves on).
     * @throws ApiError invalid_request (400: bad IBAN; counterpartyId not a live counterparty of this organization),
     * conflict (409: the counterparty has the most accounts it may have), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateExternalAccount): Promise<ExternalAccount> {
      const { organizationId } = ctx.actor
      const counterpartyId = input.counterpartyId.toLowerCase()
      const row = newExternalAccountRow(organizationId, counterpartyId, input, '', nowIso())
      try {
        return await ctx.transaction(async (trx) => {
          // Another organization's counterparty is answered as one that does not exist (as credit transfers name accounts).
          if (!(await holders.lockForAccountChange(trx, organizationId, counterpartyId))) {
            throw invalidField('counterpartyId', 'is not a counterparty of this organization, or it was deleted')
          }
          if ((await externalAccountRepo.countLiveOfCounterparty(trx, counterpartyId)) >= MAX_ACCOUNTS_PER_COUNTERPARTY) {
            throw new ApiError('conflict', `The counterparty already has ${MAX_ACCOUNTS_PER_COUNTERPARTY} external accounts, the most it may have`)
          }
          await runTogether(trx, [externalAccountRepo.insertStatement(trx, row)])
          // Read back with its counterparty's entityIds, which it inherits.
          const stored = (await externalAccountRepo.find(trx, organizationId, { id: row.id }))!
          const account = toExternalAccount(stored, stored.counterparty_entity_ids)
          const originator = ctx.actor.userId
          await recordEvent(trx, { organizationId, entityType: EXTERNAL_ACCOUNTS, entityId: row.id, type: 'CREATED', name: 'CREATED', originator, entity: account })
          await holders.recordAccountChange(trx, organizationId, counterpartyId, originator, 'EXTERNAL_ACCOUNT_ADDED')
          return account
        })
      } catch (error) {
        if (!isUniqueViolation(error) || violatedTable(error) !== 'external_accounts') throw error
        throw new ApiError('external_id_taken', 'The externalId is already used by an external account of this organization')
      }
    },

    /**
     * Applies a JSON Patch (alias, metadata) if `etag` is current; the counterparty records EXTERNAL_ACCOUNT_UPDATED.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<ExternalAccount> {
      return ctx.transaction(async (trx) => {
        const { organizationId } = ctx.actor
        const found = await findForChange(trx, organizationId, ref)
        const current = toExternalAccount(found, found.counterparty_entity_ids)
        assertEtag(etag, current.etag)
        const patched = applyPatch({ alias: current.alias, metadata: current.metadata }, operations)
        const changes = {
          alias: patched.alias ?? null,
          metadata: JSON.stringify(patched.metadata),
          version: current.version + 1,
          updated: nowIso(),
        }
        if (!(await externalAccountRepo.update(trx, current.id, current.version, changes))) {
          await lostRace(() => externalAccountRepo.find(trx, organizationId, ref), 'external account', ref)
        }
        const stored = requireLive(await externalAccountRepo.find(trx, organizationId, ref), 'external account', ref)
        const updated = toExternalAccount(stored, stored.counterparty_entity_ids)
        const originator = ctx.actor.userId
        await recordEvent(trx, { organizationId, entityType: EXTERNAL_ACCOUNTS, entityId: updated.id, type: 'UPDATED', name: 'UPDATED', originator, entity: updated })
        await holders.recordAccountChange(trx, organizationId, updated.counterpartyId, originator, 'EXTERNAL_ACCOUNT_UPDATED')
        return updated
      })
    },

    /**
     * Deletes the account if `etag` is current and nothing in progress uses it; afterwards it answers 410.
     * Its DELETED event, and the counterparty's EXTERNAL_ACCOUNT_DELETED.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), conflict (409: a payment or mandate uses it).
     */
    async remove(ctx: CommandContext, ref: ResourceRef, etag: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const { organizationId } = ctx.actor
        const { id, counterparty_id: counterpartyId } = await findForChange(trx, organizationId, ref)
        // Written before If-Match is checked and before the payments are read: the write waits for any writer of
        // the row — a payment being made to the account (lockLive) included — so the etag is compared with the
        // version actually deleted, and every payment committed before is seen.
        const row = await externalAccountRepo.markDeleted(trx, id, nowIso())
        if (!row) return lostRace(() => externalAccountRepo.find(trx, organizationId, ref), 'external account', ref)
        assertEtag(etag, etagOf(row.version - 1))
        await assertUnused(trx, row)
        const originator = ctx.actor.userId
        await recordEvent(trx, { organizationId, entityType: EXTERNAL_ACCOUNTS, entityId: id, type: 'DELETED', name: 'DELETED', originator, entity: toExternalAccount(row, await counterpartyEntityIds(trx, organizationId, id)) })
        await holders.recordAccountChange(trx, organizationId, counterpartyId, originator, 'EXTERNAL_ACCOUNT_DELETED')
      })
    },
  }
}

export type ExternalAccountService = ReturnType<typeof createExternalAccountService>
