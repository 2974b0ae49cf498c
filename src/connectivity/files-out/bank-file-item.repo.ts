import type { Executor } from '../../db/database.js'
import type { BankFileItemsTable } from '../../db/schema.js'

/** A queued item with what deciding its group is due needs: its connection's batching window. */
export interface QueuedGroup {
  groupKey: string
  oldest: string
  batchingWindowSeconds: number
}

/** The queue of payments handed to FILES connections (bank_file_items). */
export const bankFileItemRepo = {
  async insert(trx: Executor, row: BankFileItemsTable): Promise<void> {
    await trx.insertInto('bank_file_items').values(row).execute()
  },

  /** The payment's item and, once gathered, the message id of its file. */
  async findByPayment(db: Executor, organizationId: string, paymentId: string): Promise<(BankFileItemsTable & { message_id: string | null }) | undefined> {
    return db
      .selectFrom('bank_file_items')
      .leftJoin('bank_files', 'bank_files.id', 'bank_file_items.file_id')
      .selectAll('bank_file_items')
      .select('bank_files.message_id')
      .where('bank_file_items.organization_id', '=', organizationId)
      .where('bank_file_items.payment_id', '=', paymentId)
      .executeTakeFirst()
  },

  /** The items of the connection's OUTBOUND file with this message id (MsgId), oldest first; [] when there is none. */
  async ofMessage(db: Executor, connectionId: string, messageId: string): Promise<BankFileItemsTable[]> {
    return db
      .selectFrom('bank_file_items')
      .innerJoin('bank_files', 'bank_files.id', 'bank_file_items.file_id')
      .selectAll('bank_file_items')
      .where('bank_files.connection_id', '=', connectionId)
      .where('bank_files.direction', '=', 'OUTBOUND')
      .where('bank_files.message_id', '=', messageId)
      .orderBy('bank_file_items.created')
      .orderBy('bank_file_items.id')
      .execute()
  },

  /** Every group with queued items: its oldest item's time and its connection's batching window. */
  async queuedGroups(db: Executor): Promise<QueuedGroup[]> {
    const rows = await db
      .selectFrom('bank_file_items')
      .innerJoin('bank_connections', 'bank_connections.id', 'bank_file_items.connection_id')
      .select(['bank_file_items.group_key', 'bank_connections.batching_window_seconds'])
      .select((eb) => eb.fn.min('bank_file_items.created').as('oldest'))
      .where('bank_file_items.file_id', 'is', null)
      .groupBy(['bank_file_items.group_key', 'bank_connections.batching_window_seconds'])
      .execute()
    return rows.map((row) => ({ groupKey: row.group_key, oldest: row.oldest, batchingWindowSeconds: row.batching_window_seconds }))
  },

  /** The group's queued items, oldest first. */
  async queued(db: Executor, groupKey: string): Promise<BankFileItemsTable[]> {
    return db.selectFrom('bank_file_items').selectAll().where('group_key', '=', groupKey).where('file_id', 'is', null).orderBy('created').orderBy('id').execute()
  },

  /** Puts the items still queued into the file; the ones it got (another process, or a withdrawal, may have taken some). */
  async claim(trx: Executor, fileId: string, ids: string[]): Promise<BankFileItemsTable[]> {
    return trx.updateTable('bank_file_items').set({ file_id: fileId }).where('id', 'in', ids).where('file_id', 'is', null).returningAll().execute()
  },

  /** Takes a payment out of the queue; nothing when it is not queued (never was, or already in a file). */
  async withdraw(trx: Executor, organizationId: string, paymentId: string): Promise<void> {
    await trx.deleteFrom('bank_file_items').where('organization_id', '=', organizationId).where('payment_id', '=', paymentId).where('file_id', 'is', null).execute()
  },
}
