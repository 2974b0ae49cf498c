import type { Executor } from '../../db/database.js'
import type { AttachedTotal } from '../../financial-data/transactions/transaction-reconciliation.js'

/**
 * What the payments attached to a transaction add up to, in minor units (a payment's amount has no sign):
 * how the transaction's reconciliationStatus is computed. Each attached entry counts when a payment of its
 * kind has its id; anything else attached (an expected transaction, a batch: Kassa has none) counts nothing.
 */
export const attachedPaymentsTotal: AttachedTotal = async (trx: Executor, organizationId, attached) => {
  const ids = attached.map((entry) => entry.id)
  if (ids.length === 0) return 0
  const rows = await trx
    .selectFrom('payments')
    .select(['id', 'kind', 'amount'])
    .where('organization_id', '=', organizationId)
    .where('id', 'in', ids)
    .execute()
  const counted = rows.filter((row) => attached.some((entry) => entry.type === row.kind && entry.id === row.id))
  return counted.reduce((total, row) => total + Number(row.amount), 0)
}
