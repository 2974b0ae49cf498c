import type { Kysely } from 'kysely'

/**
 * Issue 13, credit transfer batches (reference §3.4): a batch as posted (its treatment, what its input was), the
 * result of each of its records, and — for treatment BATCH — the approval steps of the batch as a whole. A payment
 * made from a record names its batch (`batch_id`, `batch_treatment`: reference CreditTransfer.batch), so that the
 * credit transfer list filters by batch and a payment of a BATCH batch is approved only with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('credit_transfer_batches')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('external_id', 'text')
    .addColumn('treatment', 'text', (c) => c.notNull())
    .addColumn('skip_validation_errors', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('input_content', 'text', (c) => c.notNull())
    .addColumn('result_summary', 'text', (c) => c.notNull())
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('currency', 'text')
    .addColumn('total', 'bigint')
    .addColumn('creator_user_id', 'text', (c) => c.notNull())
    .addColumn('metadata', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('updated', 'text', (c) => c.notNull())
    .execute()
  await db.schema.createIndex('credit_transfer_batches_org_id').on('credit_transfer_batches').columns(['organization_id', 'id']).execute()
  await db.schema
    .createIndex('credit_transfer_batches_external_id_unique')
    .on('credit_transfer_batches')
    .columns(['organization_id', 'external_id'])
    .unique()
    .execute()

  await db.schema
    .createTable('credit_transfer_batch_results')
    .addColumn('batch_id', 'text', (c) => c.notNull().references('credit_transfer_batches.id'))
    .addColumn('record_index', 'integer', (c) => c.notNull())
    .addColumn('payment_id', 'text', (c) => c.references('payments.id'))
    .addColumn('errors', 'text', (c) => c.notNull())
    .addColumn('skipped', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('credit_transfer_batch_results_pk', ['batch_id', 'record_index'])
    .execute()

  // The steps of a BATCH batch: the columns of payment_approval_steps, owned by the batch.
  await db.schema
    .createTable('credit_transfer_batch_approval_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('batch_id', 'text', (c) => c.notNull().references('credit_transfer_batches.id'))
    .addColumn('approval_chain_id', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('required_role_ids', 'text', (c) => c.notNull())
    .addColumn('required_user_ids', 'text', (c) => c.notNull())
    .addColumn('allow_creator_approval', 'integer', (c) => c.notNull())
    .addColumn('auto_approved', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approver_user_id', 'text')
    .addColumn('updated', 'text')
    .execute()
  await db.schema
    .createIndex('credit_transfer_batch_approval_steps_batch')
    .on('credit_transfer_batch_approval_steps')
    .columns(['batch_id', 'position'])
    .execute()

  await db.schema.alterTable('payments').addColumn('batch_id', 'text', (c) => c.references('credit_transfer_batches.id')).execute()
  await db.schema.alterTable('payments').addColumn('batch_treatment', 'text').execute()
  await db.schema.createIndex('payments_batch').on('payments').columns(['batch_id']).execute()
}
