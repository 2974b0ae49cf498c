import type { Database, Executor } from '../../db/database.js'
import { runTogether } from '../../db/prepared-query.js'
import { readCache } from '../../db/read-cache.js'
import { setupRead } from '../../db/setup-reads.js'
import { isUniqueViolation, violatedTable } from '../../db/errors.js'
import { eventPage, firstEventStatements, recordEvent, type Event, type NewEvent } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { groupBy } from '../../shared/group-by.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { lostRace } from '../../shared/lost-race.js'
import { liveWebhooksOf, liveWebhooksStatement } from '../../webhooks/index.js'
import { EXTERNAL_ACCOUNTS, externalAccountRepo, newExternalAccountRow, toExternalAccount } from '../external-accounts/index.js'
import { lockScope } from './counterparty-entities.js'
import { counterpartyRepo, toCounterparty } from './counterparty.repo.js'
import { findWithAccounts } from './counterparty-with-accounts.js'
import {
  COUNTERPARTY_PATCH_RULES,
  CounterpartyEditable,
  type Counterparty,
  type CounterpartyListQuery,
  type CreateCounterparty,
} from './counterparty.schemas.js'

export const COUNTERPARTIES = 'counterparties'
const applyPatch = createPatcher(CounterpartyEditable, COUNTERPARTY_PATCH_RULES)

function jsonOrNull(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value)
}

/** Two accounts of one request cannot share an externalId; the database catches clashes with stored ones. */
function assertDistinctExternalIds(input: CreateCounterparty): void {
  const seen = new Set<string>()
  input.accounts?.forEach((account, index) => {
    if (account.externalId === undefined) return
    if (seen.has(account.externalId)) throw invalidField(`accounts.${index}.externalId`, 'is used twice in this request')
    seen.add(account.externalId)
  })
}

function externalIdConflict(error: unknown): ApiError | undefined {
  if (!isUniqueViolation(error)) return undefined
  const table = violatedTable(error)
  const what = table === 'external_accounts' ? 'an external account' : 'a counterparty'
  return new ApiError('external_id_taken', `The externalId is already used by ${what} of this organization`)
}

export function createCounterpartyService(database: Database) {
  async function load(db: Executor, organizationId: string, ref: ResourceRef): Promise<Counterparty> {
    const found = await findWithAccounts(db, organizationId, ref)
    return toCounterparty(requireLive(found?.counterparty, 'counterparty', ref), found?.accounts ?? [])
  }

  // The hottest reads, answered from memory until the database changes. Pages are large (up to 500
  // counterparties), so fewer of them are kept.
  const recentReads = readCache<Counterparty>()
  const recentPages = readCache<ListEnvelopeOf<Counterparty>>(64)

  return {
    /**
     * Creates a counterparty with its external accounts, and their CREATED events.
     * @throws ApiError invalid_request (400: bad IBAN, repeated externalId, an entityIds id that is no live entity of
     * the organization), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateCounterparty): Promise<Counterparty> {
      assertDistinctExternalIds(input)
      const { organizationId } = ctx.actor
      const now = nowIso()
      const id = newId()
      const accountRows = (input.accounts ?? []).map((account, index) => newExternalAccountRow(organizationId, id, account, `accounts.${index}`, now))
      try {
        return await ctx.transaction(async (trx) => {
          const row = {
            id,
            organization_id: organizationId,
            external_id: input.externalId ?? null,
            legal_name: input.legalName,
            alias: input.alias ?? null,
            party_type: input.partyType ?? null,
            email: input.email ?? null,
            phone: input.phone ?? null,
            address: jsonOrNull(input.address),
            national_identifier: jsonOrNull(input.nationalIdentifier),
            entity_ids: await lockScope(trx, organizationId, input.entityIds),
            metadata: JSON.stringify(input.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
            deleted_at: null,
          }
          const counterparty = toCounterparty(row, accountRows)
          const originator = ctx.actor.userId
          const event = (entityType: string, entity: { id: string; version: number }, entityJson?: string): NewEvent =>
            ({ organizationId, entityType, entityId: entity.id, type: 'CREATED', name: 'CREATED', originator, entity, entityJson })
          const [webhooks] = await runTogether(trx, [setupRead(organizationId, liveWebhooksStatement(trx, organizationId))])
          const live = liveWebhooksOf(webhooks.rows)
          // The rows, their CREATED events and the events' deliveries written together (on PostgreSQL one round trip
          // with the commit: issue 14); the counterparty's event stores its JSON as the response sends it.
          await runTogether(trx, [
            counterpartyRepo.insertStatement(trx, row),
            ...accountRows.map((account) => externalAccountRepo.insertStatement(trx, account)),
            ...firstEventStatements(trx, event(COUNTERPARTIES, counterparty, ctx.asSent?.(counterparty)), live),
            ...counterparty.accounts.flatMap((account) => firstEventStatements(trx, event(EXTERNAL_ACCOUNTS, account), live)),
          ])
          return counterparty
        })
      } catch (error) {
        throw externalIdConflict(error) ?? error
      }
    },

    /** @throws ApiError not_found (404), gone (410). */
    get(actor: Actor, ref: ResourceRef): Counterparty | Promise<Counterparty> {
      const key = `${actor.organizationId}/${'id' in ref ? ref.id : `external:${ref.externalId}`}`
      return recentReads(database.db, key, () => load(database.db, actor.organizationId, ref))
    },

    /** Newest first. @throws ApiError invalid_token (400). */
    list(actor: Actor, query: CounterpartyListQuery): ListEnvelopeOf<Counterparty> | Promise<ListEnvelopeOf<Counterparty>> {
      const filters = { query: query.query, entityIdsIn: query.entityIdsIn?.map((id) => id.toLowerCase()) }
      const page = pageRequest(query, COUNTERPARTIES, filters, ['text'])
      const key = JSON.stringify([actor.organizationId, page.limit, query.token ?? null, filters.query ?? null, filters.entityIdsIn ?? null])
      return recentPages(database.db, key, async () => {
        const rows = await counterpartyRepo.list(database.db, actor.organizationId, filters, page)
        const accounts = groupBy(
          await externalAccountRepo.listOfCounterparties(database.db, rows.slice(0, page.limit).map((row) => row.id)),
          (account) => account.counterparty_id,
        )
        return pageOf(rows, page, (row) => [row.id], (row) => toCounterparty(row, accounts.get(row.id) ?? []))
      })
    },

    /**
     * Applies a JSON Patch if `etag` is current; external accounts change through their own endpoint.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400), invalid_request
     * (400: an entityIds id that is no live entity of the organization).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<Counterparty> {
      return ctx.transaction(async (trx) => {
        const current = await load(trx, ctx.actor.organizationId, ref)
        assertEtag(etag, current.etag)
        const { accounts: _accounts, ...fields } = current
        const patched = applyPatch(
          {
            legalName: fields.legalName,
            alias: fields.alias,
            partyType: fields.partyType,
            email: fields.email,
            phone: fields.phone,
            address: fields.address,
            nationalIdentifier: fields.nationalIdentifier,
            entityIds: fields.entityIds,
            metadata: fields.metadata,
          },
          operations,
        )
        const changed = await counterpartyRepo.update(trx, current.id, current.version, {
          legal_name: patched.legalName,
          alias: patched.alias ?? null,
          party_type: patched.partyType ?? null,
          email: patched.email ?? null,
          phone: patched.phone ?? null,
          address: jsonOrNull(patched.address),
          national_identifier: jsonOrNull(patched.nationalIdentifier),
          entity_ids: await lockScope(trx, ctx.actor.organizationId, patched.entityIds),
          metadata: JSON.stringify(patched.metadata),
          version: current.version + 1,
          updated: nowIso(),
        })
        if (!changed) await lostRace(() => counterpartyRepo.find(trx, ctx.actor.organizationId, ref), 'counterparty', ref)
        const updated = await load(trx, ctx.actor.organizationId, { id: current.id })
        await recordEvent(trx, {
          organizationId: ctx.actor.organizationId,
          entityType: COUNTERPARTIES,
          entityId: current.id,
          type: 'UPDATED',
          name: 'UPDATED',
          originator: ctx.actor.userId,
          entity: updated,
        })
        return updated
      })
    },

    /**
     * Deletes the counterparty and its external accounts; afterwards they answer 410.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412: `etag` is stale).
     */
    async remove(ctx: CommandContext, ref: ResourceRef, etag: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const { organizationId } = ctx.actor
        const { id } = requireLive(await counterpartyRepo.find(trx, organizationId, ref), 'counterparty', ref)
        const now = nowIso()
        // Written before If-Match is checked: the write waits for any concurrent writer of the row, so
        // the etag is compared with the version actually deleted, and a concurrent delete is a 410.
        const row = await counterpartyRepo.markDeleted(trx, id, now)
        if (!row) return lostRace(() => counterpartyRepo.find(trx, organizationId, ref), 'counterparty', ref)
        assertEtag(etag, etagOf(row.version - 1))
        const originator = ctx.actor.userId
        const deletedAccounts = await externalAccountRepo.deleteOfCounterparty(trx, id, now)
        for (const account of deletedAccounts) {
          await recordEvent(trx, { organizationId, entityType: EXTERNAL_ACCOUNTS, entityId: account.id, type: 'DELETED', name: 'DELETED', originator, entity: toExternalAccount(account, row.entity_ids) })
        }
        await recordEvent(trx, { organizationId, entityType: COUNTERPARTIES, entityId: id, type: 'DELETED', name: 'DELETED', originator, entity: toCounterparty(row, []) })
      })
    },

    /** The counterparty's history, oldest first. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await counterpartyRepo.find(database.db, actor.organizationId, ref)
      if (!row) requireLive(row, 'counterparty', ref)
      return eventPage(database.db, actor.organizationId, COUNTERPARTIES, row!.id, query)
    },
  }
}

export type CounterpartyService = ReturnType<typeof createCounterpartyService>
