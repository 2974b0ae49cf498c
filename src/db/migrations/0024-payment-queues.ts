import { sql, type Kysely } from 'kysely'

/**
 * Issue 14: the payment worker polls for APPROVED payments, oldest first (payments/processing/payment-submitter.ts),
 * and each direct debit it submits asks whether another collection under its mandate went to the bank. Neither had
 * an index: each poll read the whole payments table on the event loop (10 ms at 36,000 payments, measured; growing
 * with the table), and each collection did the same. Both indexes are partial: a credit transfer adds nothing to the
 * mandate's, and a payment is in the queue's only while it is APPROVED. The queue's query names the status as a
 * literal, so SQLite and PostgreSQL can prove the index applies.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('payments_approved_queue').on('payments').columns(['updated', 'id']).where(sql.ref('status'), '=', 'APPROVED').execute()
  await db.schema.createIndex('payments_mandate').on('payments').columns(['mandate_id', 'status']).where(sql.ref('mandate_id'), 'is not', null).execute()
}
