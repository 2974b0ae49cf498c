import type { Database, Executor } from '../../db/database.js'
import type { MandatesTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { eventPage, recordEvent, type Event } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { resolveExternalAccount } from '../credit-transfers/credit-transfer.service.js'
import { todayUtc } from '../credit-transfers/credit-transfer.rules.js'
import { mandateRepo, toMandate, type MandateRow } from './mandate.repo.js'
import type { CreateMandate, Mandate, MandateListQuery, MandateStatus } from './mandate.schemas.js'

export const MANDATES = 'mandates'

async function findMandate(db: Executor, organizationId: string, ref: ResourceRef): Promise<MandateRow> {
  return requireLive(await mandateRepo.find(db, organizationId, ref), 'mandate', ref)
}

/**
 * Moves a mandate to `status` and records the event, in the caller's transaction.
 * @throws ApiError conflict (409) when another writer changed it first.
 */
export async function setMandateStatus(trx: Executor, current: MandateRow, status: MandateStatus, originator: string, name: string): Promise<Mandate> {
  const updated = nowIso()
  if (!(await mandateRepo.setStatus(trx, current.id, current.version, status, updated))) {
    throw new ApiError('conflict', 'The mandate changed while this request ran; fetch it again')
  }
  const mandate = toMandate({ ...current, status, version: current.version + 1, updated })
  await recordEvent(trx, { organizationId: current.organization_id, entityType: MANDATES, entityId: current.id, type: 'UPDATED', name, originator, entity: mandate })
  return mandate
}

export function createMandateService(database: Database) {
  return {
    /**
     * @throws ApiError invalid_request (400: external account, signature date), external_id_taken (409),
     * conflict (409: the creditor already has a mandate with this reference).
     */
    async create(ctx: CommandContext, input: CreateMandate): Promise<Mandate> {
      if (input.signatureDate > todayUtc()) throw invalidField('signatureDate', 'must not be in the future')
      try {
        return await ctx.transaction(async (trx) => {
          const account = await resolveExternalAccount(trx, ctx.actor, input.externalAccountId, 'externalAccountId')
          if (!account.snapshot.identifiers.some((identifier) => identifier.type === 'IBAN')) {
            throw invalidField('externalAccountId', 'SEPA direct debits need an account with an IBAN')
          }
          const now = nowIso()
          const row: MandatesTable = {
            id: newId(),
            organization_id: ctx.actor.organizationId,
            external_id: input.externalId ?? null,
            external_account_id: account.externalAccountId,
            counterparty_id: account.counterpartyId,
            scheme: input.scheme,
            creditor_reference: input.creditorReference,
            mandate_reference: input.mandateReference,
            signature_date: input.signatureDate,
            status: input.active ? 'ACTIVE' : 'CREATED',
            metadata: JSON.stringify(input.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
          }
          await mandateRepo.insert(trx, row)
          // Read back with the account and counterparty it shows as source and sourceHolder.
          const mandate = toMandate(await findMandate(trx, row.organization_id, { id: row.id }))
          await recordEvent(trx, { organizationId: row.organization_id, entityType: MANDATES, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: mandate })
          return mandate
        })
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        throw new ApiError('conflict', 'The externalId, or the creditor and mandate reference, is already used by a mandate of this organization')
      }
    },

    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Mandate> {
      return toMandate(await findMandate(database.db, actor.organizationId, ref))
    },

    /** Newest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: MandateListQuery): Promise<ListEnvelopeOf<Mandate>> {
      const { limit, token, ...filters } = query
      const page = pageRequest({ limit, token }, MANDATES, filters, ['text'])
      const rows = await mandateRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toMandate)
    },

    /** No further collections. @throws ApiError not_found (404), conflict (409: already cancelled). */
    async cancel(ctx: CommandContext, ref: ResourceRef): Promise<Mandate> {
      return ctx.transaction(async (trx) => {
        const current = await findMandate(trx, ctx.actor.organizationId, ref)
        if (current.status === 'CANCELLED') throw new ApiError('conflict', 'The mandate is already cancelled')
        return setMandateStatus(trx, current, 'CANCELLED', ctx.actor.userId, 'CANCELLED')
      })
    },

    /** @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await findMandate(database.db, actor.organizationId, ref)
      return eventPage(database.db, actor.organizationId, MANDATES, row.id, query)
    },
  }
}
