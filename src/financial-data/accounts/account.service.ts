import { lockFilesConnection } from '../../connectivity/index.js'
import type { Database } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import { recordEvent } from '../../events/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { normalizeIdentifiers } from '../../shared/account-identifiers.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { isCurrency } from '../../shared/money.js'
import { accountNumberKey } from './account-numbers.js'
import { lockDefaultEntity, lockEntity } from '../entities/index.js'
import { openAtSandboxBank } from '../sandbox/sandbox-accounts.js'
import { accountRepo, toAccount } from './account.repo.js'
import { ACCOUNT_PATCH_RULES, AccountEditable, type Account, type AccountListQuery, type CreateAccount } from './account.schemas.js'

export const ACCOUNTS = 'accounts'
const applyPatch = createPatcher(AccountEditable, ACCOUNT_PATCH_RULES)

export function createAccountService(database: Database) {
  return {
    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Account> {
      return toAccount(requireLive(await accountRepo.find(database.db, actor.organizationId, ref), 'account', ref))
    },

    /** Oldest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: AccountListQuery): Promise<ListEnvelopeOf<Account>> {
      const filters = { currency: query.currency, identifier: query.identifier?.replace(/\s+/g, '').toUpperCase(), entityId: query.entityId?.toLowerCase() }
      const page = pageRequest(query, ACCOUNTS, filters, ['text'])
      const rows = await accountRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toAccount)
    },

    /**
     * Registers an own account held at a real bank; its data then comes from imported statements.
     * @throws ApiError invalid_request (400: currency, IBAN), conflict (409: an account of this
     * organization already has one of its numbers, of whatever type — statements are matched by them,
     * account-numbers.ts), external_id_taken (409), not_found (404: no such connection), invalid_request (400: a
     * connection not of type FILES, or one without an IBAN among the identifiers; an entityId naming no live entity of
     * the organization, or none given when the organization has no default entity).
     */
    async create(ctx: CommandContext, input: CreateAccount): Promise<Account> {
      if (!isCurrency(input.currency)) throw invalidField('currency', `${input.currency} is not an ISO 4217 currency`)
      const identifiers = normalizeIdentifiers(input.identifiers, 'identifiers')
    // Its bank files name the account by IBAN (pain.001 DbtrAcct, pain.008 CdtrAcct).
    if (input.connectionId && !identifiers.some((identifier) => identifier.type === 'IBAN')) {
      throw invalidField('identifiers', 'must include an IBAN when the account is on a bank connection: its payment files name it')
    }
      try {
        return await ctx.transaction(async (trx) => {
          const connection = input.connectionId ? await lockFilesConnection(trx, ctx.actor.organizationId, input.connectionId, 'connectionId') : undefined
          const entity = input.entityId
            ? await lockEntity(trx, ctx.actor.organizationId, input.entityId, 'entityId')
            : await lockDefaultEntity(trx, ctx.actor.organizationId, 'entityId')
          const taken = await accountRepo.byNumber(trx, ctx.actor.organizationId)
          for (const identifier of identifiers) {
            const [clash] = taken.get(accountNumberKey(identifier.number)) ?? []
            if (clash) throw new ApiError('conflict', `The account ${clash.id} already has the ${identifier.type === 'IBAN' ? 'IBAN' : 'account number'} ${identifier.number}`)
          }
          const now = nowIso()
          const row = {
            id: newId(),
            organization_id: ctx.actor.organizationId,
            external_id: input.externalId ?? null,
            name: input.name,
            alias: input.alias ?? null,
            market: input.market,
            currency: input.currency,
            bank_name: input.bank.name,
            bic: input.bank.bic ?? null,
            identifiers: JSON.stringify(identifiers),
            // Held at the simulated bank when its connection leads there (docs/sandbox-bank.md).
            fictive: connection?.simulated_bank ?? 0,
            connection_id: input.connectionId ?? null,
            entity_id: entity.id,
            metadata: JSON.stringify(input.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
          }
          await accountRepo.insert(trx, row)
          if (connection?.simulated_bank) await openAtSandboxBank(trx, row)
          const account = toAccount(row)
          await recordEvent(trx, { organizationId: row.organization_id, entityType: ACCOUNTS, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: account })
          return account
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError('external_id_taken', 'The externalId is already used by an account of this organization')
        throw error
      }
    },

    /**
     * Alias, metadata, and the entity the account belongs to (a live one of the organization).
     * @throws ApiError not_found (404), precondition_failed (412), invalid_patch (400), invalid_request (400: the
     * entityId names no live entity of the organization).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<Account> {
      return ctx.transaction(async (trx) => {
        const current = toAccount(requireLive(await accountRepo.find(trx, ctx.actor.organizationId, ref), 'account', ref))
        assertEtag(etag, current.etag)
        const patched = applyPatch({ alias: current.alias, entityId: current.entityId, metadata: current.metadata }, operations)
        const entityId =
          patched.entityId.toLowerCase() === current.entityId ? current.entityId : (await lockEntity(trx, ctx.actor.organizationId, patched.entityId, 'entityId')).id
        const updated = nowIso()
        const changes = { alias: patched.alias ?? null, entity_id: entityId, metadata: JSON.stringify(patched.metadata), updated }
        if (!(await accountRepo.update(trx, current.id, current.version, changes))) {
          throw new ApiError('precondition_failed', 'The account changed while this update ran; fetch it again')
        }
        const account = toAccount(requireLive(await accountRepo.find(trx, ctx.actor.organizationId, { id: current.id }), 'account', ref))
        await recordEvent(trx, { organizationId: account.organizationId, entityType: ACCOUNTS, entityId: account.id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity: account })
        return account
      })
    },
  }
}
