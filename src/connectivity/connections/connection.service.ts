import type { Database, Executor } from '../../db/database.js'
import { isUniqueViolation } from '../../db/errors.js'
import type { BankConnectionsTable } from '../../db/schema.js'
import { eventPage, recordEvent, type Event } from '../../events/index.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { createPatcher, type JsonPatchOperation } from '../../http/json-patch.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { assertEtag, etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { recordAuditEntry } from '../../iam/index.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import { requireLive } from '../../shared/lookup.js'
import { lostRace } from '../../shared/lost-race.js'
import { assertDirectoriesFree, prepareDirectories, resolvePaths, type ConnectionDirectories, type ResolvedPaths } from './connection-directories.js'
import { connectionRepo, settingColumns, toConnection } from './connection.repo.js'
import { checkConnectionSettings } from './connection.rules.js'
import {
  CONNECTION_PATCH_RULES,
  ConnectionEditable,
  DEFAULT_BATCHING_WINDOW_SECONDS,
  DEFAULT_MESSAGE_VERSIONS,
  type Connection,
  type ConnectionListQuery,
  type CreateConnection,
} from './connection.schemas.js'

export const CONNECTIONS = 'connections'
const applyPatch = createPatcher(ConnectionEditable, CONNECTION_PATCH_RULES)

/** The connection as a PATCH sees it: its settings, not what never changes (id, type, externalId…). */
function editableOf(connection: Connection): ConnectionEditable {
  const { name, bank, messageVersions, initiatingParty, creditorSchemeId, outboxDir, inboxDir, batchingWindowSeconds, metadata } = connection
  return { name, bank, messageVersions, initiatingParty, creditorSchemeId, outboxDir, inboxDir, batchingWindowSeconds, metadata }
}

/**
 * The FILES connection an own account is registered with, locked for the caller's transaction so it cannot be
 * deleted before the account commits (remove() refuses a connection an account uses).
 * @throws ApiError not_found (404: none of this organization, or deleted), invalid_request (400: not FILES).
 */
export async function lockFilesConnection(trx: Executor, organizationId: string, id: string, field: string): Promise<BankConnectionsTable> {
  const row = await connectionRepo.lockLive(trx, organizationId, id)
  if (!row) throw new ApiError('not_found', `No connection ${id}`)
  if (row.type !== 'FILES') throw invalidField(field, `The connection ${id} is of type ${row.type}: an own account is paid from through a FILES connection`)
  return row
}

/**
 * A connection to the simulated bank is a FILES connection of a sandbox organization (docs/sandbox-bank.md).
 * @throws ApiError invalid_request (400) naming simulatedBank.
 */
async function checkSimulatedBank(database: Database, organizationId: string, type: BankConnectionsTable['type']): Promise<void> {
  if (type !== 'FILES') throw invalidField('simulatedBank', 'is for FILES connections: the simulated bank is reached through files')
  const organization = await database.db.selectFrom('organizations').select('environment').where('id', '=', organizationId).executeTakeFirst()
  if (organization?.environment !== 'SANDBOX') throw invalidField('simulatedBank', 'is for sandbox organizations: a live organization pays through real banks')
}

/** @param filesDir the server's bank files directory (KASSA_BANK_FILES_DIR): every connection directory lies in it. */
export function createConnectionService(database: Database, filesDir: string) {
  async function load(db: Executor, organizationId: string, ref: ResourceRef): Promise<BankConnectionsTable> {
    return requireLive(await connectionRepo.find(db, organizationId, ref), 'connection', ref)
  }

  /** `directories` and every other live connection's, resolved on the disk (before the transaction). */
  async function resolveDirectories(directories: ConnectionDirectories, exceptId?: string): Promise<ResolvedPaths> {
    const others = await connectionRepo.directoriesInUse(database.db, exceptId)
    return resolvePaths([directories.outboxDir, directories.inboxDir, ...others])
  }

  return {
    /**
     * Creates a connection, message versions and batching window defaulted, its directories (when given)
     * created and checked first, with its CREATED event.
     * @throws ApiError invalid_request (400: BIC, creditor scheme id, initiating party, directory paths),
     * directory_unusable (422), conflict (409: a directory another connection uses), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateConnection): Promise<Connection> {
      const { type, simulatedBank = false, externalId, messageVersions, batchingWindowSeconds, metadata, ...rest } = input
      const settings: ConnectionEditable = {
        ...rest,
        messageVersions: { ...DEFAULT_MESSAGE_VERSIONS, ...messageVersions },
        batchingWindowSeconds: batchingWindowSeconds ?? DEFAULT_BATCHING_WINDOW_SECONDS,
        metadata: metadata ?? {},
      }
      checkConnectionSettings(type, settings, filesDir)
      if (simulatedBank) await checkSimulatedBank(database, ctx.actor.organizationId, type)
      await prepareDirectories(filesDir, settings)
      const resolved = await resolveDirectories(settings)
      try {
        return await ctx.transaction(async (trx) => {
          assertDirectoriesFree(settings, resolved, await connectionRepo.directoriesInUse(trx))
          const now = nowIso()
          const row: BankConnectionsTable = {
            id: newId(),
            organization_id: ctx.actor.organizationId,
            external_id: externalId ?? null,
            type,
            simulated_bank: simulatedBank ? 1 : 0,
            ...settingColumns(settings),
            version: 1,
            created: now,
            updated: now,
            deleted_at: null,
          }
          await connectionRepo.insert(trx, row)
          const connection = toConnection(row)
          await recordEvent(trx, { organizationId: row.organization_id, entityType: CONNECTIONS, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: ctx.actor.userId, entity: connection })
          await recordAuditEntry(trx, ctx, { action: 'connections.create', resourceType: CONNECTIONS, resourceId: row.id, after: connection })
          return connection
        })
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError('external_id_taken', 'The externalId is already used by a connection of this organization')
        throw error
      }
    },

    /** @throws ApiError not_found (404), gone (410). */
    async get(actor: Actor, ref: ResourceRef): Promise<Connection> {
      return toConnection(await load(database.db, actor.organizationId, ref))
    },

    /** Live connections, oldest first. @throws ApiError invalid_token (400). */
    async list(actor: Actor, query: ConnectionListQuery): Promise<ListEnvelopeOf<Connection>> {
      const filters = { type: query.type }
      const page = pageRequest(query, CONNECTIONS, filters, ['text'])
      const rows = await connectionRepo.list(database.db, actor.organizationId, filters, page)
      return pageOf(rows, page, (row) => [row.id], toConnection)
    },

    /**
     * Applies a JSON Patch if `etag` is current; the result is checked as a new connection's settings are.
     * The patch is applied and new directories prepared before the transaction (nothing waits on the disk
     * inside it); the transaction then insists on the same version, so what it stores is what was checked.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412), invalid_patch (400),
     * invalid_request (400), directory_unusable (422), conflict (409: a directory another connection uses).
     */
    async update(ctx: CommandContext, ref: ResourceRef, etag: string, operations: JsonPatchOperation[]): Promise<Connection> {
      const { organizationId } = ctx.actor
      const before = toConnection(await load(database.db, organizationId, ref))
      assertEtag(etag, before.etag)
      const patched = applyPatch(editableOf(before), operations)
      checkConnectionSettings(before.type, patched, filesDir)
      await prepareDirectories(filesDir, patched, before)
      const resolved = await resolveDirectories(patched, before.id)
      return ctx.transaction(async (trx) => {
        const row = await load(trx, organizationId, ref)
        assertEtag(etag, etagOf(row.version))
        assertDirectoriesFree(patched, resolved, await connectionRepo.directoriesInUse(trx, row.id))
        const changes = { ...settingColumns(patched), version: row.version + 1, updated: nowIso() }
        if (!(await connectionRepo.update(trx, row.id, row.version, changes))) {
          await lostRace(() => connectionRepo.find(trx, organizationId, ref), 'connection', ref)
        }
        const connection = toConnection({ ...row, ...changes })
        await recordEvent(trx, { organizationId, entityType: CONNECTIONS, entityId: row.id, type: 'UPDATED', name: 'UPDATED', originator: ctx.actor.userId, entity: connection })
        await recordAuditEntry(trx, ctx, { action: 'connections.update', resourceType: CONNECTIONS, resourceId: row.id, before: toConnection(row), after: connection })
        return connection
      })
    },

    /**
     * Deletes the connection (softly: afterwards it answers 410); its directories and their files stay on disk.
     * @throws ApiError not_found (404), gone (410), precondition_failed (412: `etag` is stale), conflict (409: an
     * account names the connection).
     */
    async remove(ctx: CommandContext, ref: ResourceRef, etag: string): Promise<void> {
      await ctx.transaction(async (trx) => {
        const { organizationId } = ctx.actor
        const current = await load(trx, organizationId, ref)
        const { id } = current
        const row = await connectionRepo.markDeleted(trx, id, nowIso())
        // Marked deleted before If-Match is checked: the write waits for any concurrent writer of the row, so
        // the etag is compared with the version actually deleted, and a concurrent delete is a 410.
        if (!row) return lostRace(() => connectionRepo.find(trx, organizationId, ref), 'connection', ref)
        assertEtag(etag, etagOf(row.version - 1))
        // Asked after the row is ours: an account registered meanwhile locked it first (connectionRepo.lockLive), so it is seen here.
        if (await accountRepo.usesConnection(trx, id)) {
          throw new ApiError('conflict', 'Accounts are registered with this connection (it is their thirdPartyId): it cannot be deleted while they use it')
        }
        await recordEvent(trx, { organizationId, entityType: CONNECTIONS, entityId: id, type: 'DELETED', name: 'DELETED', originator: ctx.actor.userId, entity: toConnection(row) })
        await recordAuditEntry(trx, ctx, { action: 'connections.delete', resourceType: CONNECTIONS, resourceId: id, before: toConnection(current) })
      })
    },

    /** The connection's history, oldest first; also after it was deleted. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await connectionRepo.find(database.db, actor.organizationId, ref)
      if (!row) requireLive(row, 'connection', ref)
      return eventPage(database.db, actor.organizationId, CONNECTIONS, row!.id, query)
    },
  }
}
