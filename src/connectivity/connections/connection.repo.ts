import type { Executor } from '../../db/database.js'
import type { BankConnectionsTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import { etagOf } from '../../http/preconditions.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Connection, ConnectionEditable, InitiatingParty } from './connection.schemas.js'

export function toConnection(row: BankConnectionsTable): Connection {
  return {
    id: row.id,
    organizationId: row.organization_id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    type: row.type,
    simulatedBank: row.simulated_bank === 1,
    name: row.name,
    bank: { name: row.bank_name, bic: row.bic },
    messageVersions: {
      creditTransfers: row.credit_transfer_version as Connection['messageVersions']['creditTransfers'],
      directDebits: row.direct_debit_version as Connection['messageVersions']['directDebits'],
    },
    initiatingParty: JSON.parse(row.initiating_party) as InitiatingParty,
    ...(row.creditor_scheme_id !== null ? { creditorSchemeId: row.creditor_scheme_id } : {}),
    ...(row.outbox_dir !== null ? { outboxDir: row.outbox_dir } : {}),
    ...(row.inbox_dir !== null ? { inboxDir: row.inbox_dir } : {}),
    batchingWindowSeconds: row.batching_window_seconds,
    metadata: JSON.parse(row.metadata) as Record<string, string>,
    version: row.version,
    etag: etagOf(row.version),
    created: row.created,
    updated: row.updated,
  }
}

/** The stored columns of a connection's settings. */
export function settingColumns(settings: ConnectionEditable): Omit<ConnectionChanges, 'version' | 'updated'> {
  return {
    name: settings.name,
    bank_name: settings.bank.name,
    bic: settings.bank.bic,
    credit_transfer_version: settings.messageVersions.creditTransfers,
    direct_debit_version: settings.messageVersions.directDebits,
    initiating_party: JSON.stringify(settings.initiatingParty),
    creditor_scheme_id: settings.creditorSchemeId ?? null,
    outbox_dir: settings.outboxDir ?? null,
    inbox_dir: settings.inboxDir ?? null,
    batching_window_seconds: settings.batchingWindowSeconds,
    metadata: JSON.stringify(settings.metadata),
  }
}

export type ConnectionChanges = Omit<BankConnectionsTable, 'id' | 'organization_id' | 'external_id' | 'type' | 'simulated_bank' | 'created' | 'deleted_at'>

export const connectionRepo = {
  async insert(trx: Executor, row: BankConnectionsTable): Promise<void> {
    await trx.insertInto('bank_connections').values(row).execute()
  },

  /** Including deleted rows, so a deleted connection answers 410 rather than 404. */
  async find(db: Executor, organizationId: string, ref: ResourceRef): Promise<BankConnectionsTable | undefined> {
    const query = db.selectFrom('bank_connections').selectAll().where('organization_id', '=', organizationId)
    return ('id' in ref ? query.where('id', '=', ref.id) : query.where('external_id', '=', ref.externalId)).executeTakeFirst()
  },

  /** Live connections, oldest first; fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: { type?: Connection['type'] }, page: PageRequest): Promise<BankConnectionsTable[]> {
    let query = db.selectFrom('bank_connections').selectAll().where('organization_id', '=', organizationId).where('deleted_at', 'is', null)
    if (filters.type) query = query.where('type', '=', filters.type)
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** The directories of the live connections of every organization but `exceptId`: the disk is the server's, not an organization's. */
  async directoriesInUse(db: Executor, exceptId?: string): Promise<string[]> {
    let query = db
      .selectFrom('bank_connections')
      .select(['outbox_dir', 'inbox_dir'])
      .where('deleted_at', 'is', null)
      .where((eb) => eb.or([eb('outbox_dir', 'is not', null), eb('inbox_dir', 'is not', null)]))
    if (exceptId) query = query.where('id', '!=', exceptId)
    const rows = await query.execute()
    return rows.flatMap((row) => [row.outbox_dir, row.inbox_dir].filter((path) => path !== null))
  },

  /** Every live FILES connection with an inboxDir, of every organization: the inbox reader's round. */
  async withInbox(db: Executor): Promise<Pick<BankConnectionsTable, 'id' | 'organization_id' | 'inbox_dir'>[]> {
    return db
      .selectFrom('bank_connections')
      .select(['id', 'organization_id', 'inbox_dir'])
      .where('type', '=', 'FILES')
      .where('deleted_at', 'is', null)
      .where('inbox_dir', 'is not', null)
      .orderBy('id')
      .execute()
  },

  /** Writes the new state if the row is still live at `expectedVersion`; false when someone else wrote first. */
  async update(trx: Executor, id: string, expectedVersion: number, changes: ConnectionChanges): Promise<boolean> {
    const result = await trx
      .updateTable('bank_connections')
      .set(changes)
      .where('id', '=', id)
      .where('version', '=', expectedVersion)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /**
   * The live connection, its row locked until the transaction ends (a write of nothing: both backends lock
   * what they update) — so a delete running at the same time either waits and then sees what the caller
   * wrote, or commits first and this finds nothing.
   */
  async lockLive(trx: Executor, organizationId: string, id: string): Promise<BankConnectionsTable | undefined> {
    return trx
      .updateTable('bank_connections')
      .set((eb) => ({ version: eb.ref('version') }))
      .where('id', '=', id)
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },

  /** Marks a live connection deleted at any version, bumping it; the deleted row, or undefined if it was already gone. */
  async markDeleted(trx: Executor, id: string, now: string): Promise<BankConnectionsTable | undefined> {
    return trx
      .updateTable('bank_connections')
      .set((eb) => ({ deleted_at: now, updated: now, version: eb('version', '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .returningAll()
      .executeTakeFirst()
  },
}
