import type { Executor } from '../../db/database.js'
import type { BankFilesTable } from '../../db/schema.js'
import { keysetAfter, type PageRequest } from '../../http/pagination.js'
import type { BankFile } from './bank-file.schemas.js'

export interface BankFileFilters {
  connectionId?: string
  direction?: BankFile['direction']
  messageType?: string
  /** Days, UTC: created on or after `createdFrom`, on or before `createdTo`. */
  createdFrom?: string
  createdTo?: string
}

/** The listed columns: everything but the content, which only GET …/content reads. */
const SUMMARY = ['id', 'organization_id', 'connection_id', 'direction', 'message_type', 'message_id', 'status', 'size', 'sha256', 'payment_ids', 'created'] as const
export type BankFileSummary = Pick<BankFilesTable, (typeof SUMMARY)[number]>

export function toBankFile(row: BankFileSummary): BankFile {
  return {
    id: row.id,
    connectionId: row.connection_id,
    direction: row.direction,
    messageType: row.message_type,
    messageId: row.message_id,
    status: row.status,
    size: row.size,
    sha256: row.sha256,
    created: row.created,
    paymentIds: JSON.parse(row.payment_ids) as string[],
  }
}

/** The day after a yyyy-mm-dd: `created` is an ISO timestamp, so "on or before a day" is "before the next". */
function dayAfter(day: string): string {
  const next = new Date(`${day}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return next.toISOString().slice(0, 10)
}

export const bankFileRepo = {
  async insert(trx: Executor, row: BankFilesTable): Promise<void> {
    await trx.insertInto('bank_files').values(row).execute()
  },

  async find(db: Executor, organizationId: string, id: string): Promise<BankFileSummary | undefined> {
    return db.selectFrom('bank_files').select(SUMMARY).where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
  },

  /** The file of the connection with this content (files are kept once per connection, direction and SHA-256). */
  async findByContent(db: Executor, connectionId: string, direction: BankFilesTable['direction'], sha256: string): Promise<Pick<BankFilesTable, 'id' | 'report'> | undefined> {
    return db.selectFrom('bank_files').select(['id', 'report']).where('connection_id', '=', connectionId).where('direction', '=', direction).where('sha256', '=', sha256).executeTakeFirst()
  },

  async content(db: Executor, organizationId: string, id: string): Promise<string | undefined> {
    const row = await db.selectFrom('bank_files').select('content').where('organization_id', '=', organizationId).where('id', '=', id).executeTakeFirst()
    return row?.content
  },

  /** Oldest first (ids are time-ordered); fetches `limit + 1` rows for the pager. */
  async list(db: Executor, organizationId: string, filters: BankFileFilters, page: PageRequest): Promise<BankFileSummary[]> {
    let query = db.selectFrom('bank_files').select(SUMMARY).where('organization_id', '=', organizationId)
    if (filters.connectionId) query = query.where('connection_id', '=', filters.connectionId)
    if (filters.direction) query = query.where('direction', '=', filters.direction)
    if (filters.messageType) query = query.where('message_type', '=', filters.messageType)
    if (filters.createdFrom) query = query.where('created', '>=', filters.createdFrom)
    if (filters.createdTo) query = query.where('created', '<', dayAfter(filters.createdTo))
    if (page.after) query = query.where(keysetAfter(['id'], 'asc', page.after))
    return query.orderBy('id', 'asc').limit(page.limit + 1).execute()
  },

  /** Files still to be written to their connection's outboxDir, with it. */
  async pendingWrites(db: Executor): Promise<(Pick<BankFilesTable, 'id' | 'message_id' | 'content'> & { outbox_dir: string | null })[]> {
    return db
      .selectFrom('bank_files')
      .innerJoin('bank_connections', 'bank_connections.id', 'bank_files.connection_id')
      .select(['bank_files.id', 'bank_files.message_id', 'bank_files.content', 'bank_connections.outbox_dir'])
      .where('bank_files.status', '=', 'PENDING_WRITE')
      .orderBy('bank_files.id')
      .execute()
  },

  async setStatus(db: Executor, id: string, status: BankFilesTable['status'], updated: string): Promise<void> {
    await db.updateTable('bank_files').set({ status, updated }).where('id', '=', id).execute()
  },
}
