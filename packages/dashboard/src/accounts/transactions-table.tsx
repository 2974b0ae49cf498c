import { accountLabel } from '../format/account'
import { Amount, CalendarDate } from '../format/format'
import { paymentPath } from '../payments/payment-kinds'
import { Link } from '../router/link'
import { Badge, type Tone } from '../ui/badge'
import { DataTable, type Column } from '../ui/data-table'
import type { Transaction } from './account-types'

const RECONCILIATION: Record<Transaction['reconciliationStatus'], { label: string; tone: Tone }> = {
  NOT_RECONCILED: { label: 'Not reconciled', tone: 'neutral' },
  PARTIALLY_RECONCILED: { label: 'Partly reconciled', tone: 'waiting' },
  RECONCILED: { label: 'Reconciled', tone: 'good' },
}

export const RECONCILIATION_STATUSES = Object.keys(RECONCILIATION) as Transaction['reconciliationStatus'][]
export const reconciliationLabel = (status: Transaction['reconciliationStatus']) => RECONCILIATION[status].label

/** The payments a transaction was reconciled to, each a link to its page. */
function Attached({ transaction }: { transaction: Transaction }) {
  return (
    <>
      {transaction.attachedTransactables.map((attached) =>
        attached.type === 'CREDIT_TRANSFER' || attached.type === 'DIRECT_DEBIT' ? (
          <Link key={attached.id} class="secondary" to={paymentPath(attached.type, attached.id)}>
            {attached.type === 'CREDIT_TRANSFER' ? 'Credit transfer' : 'Direct debit'}
          </Link>
        ) : (
          <span key={attached.id} class="secondary">
            {attached.type === 'PAYMENT_BATCH' ? 'Payment batch' : 'Expected transaction'}
          </span>
        ),
      )}
    </>
  )
}

const columns: Column<Transaction>[] = [
  {
    header: 'Booked',
    cell: (transaction) => (
      <>
        <CalendarDate date={transaction.date} />
        {transaction.valueDate !== transaction.date && (
          <span class="secondary">
            Value <CalendarDate date={transaction.valueDate} />
          </span>
        )}
      </>
    ),
  },
  {
    header: 'Counterparty',
    cell: ({ counterparty }) => (
      <>
        <span class="primary-text">{counterparty?.name ?? '—'}</span>
        {counterparty?.account && counterparty.account.identifiers.length > 0 && <span class="secondary mono">{accountLabel(counterparty.account)}</span>}
      </>
    ),
  },
  {
    header: 'Description',
    rowHeader: true,
    cell: (transaction) => (
      <>
        {transaction.description}
        {/* The reference, unless the bank's description already says it. */}
        {transaction.reference && !transaction.description.includes(transaction.reference) && <span class="secondary">{transaction.reference}</span>}
        {transaction.returned && <span class="secondary">Returned{transaction.returnReason ? ` (${transaction.returnReason.code})` : ''}</span>}
      </>
    ),
  },
  { header: 'Amount', align: 'end', cell: (transaction) => <Amount amount={transaction.amount} /> },
  {
    header: 'Reconciliation',
    cell: (transaction) => (
      <>
        <Badge tone={RECONCILIATION[transaction.reconciliationStatus].tone}>{reconciliationLabel(transaction.reconciliationStatus)}</Badge>
        <Attached transaction={transaction} />
      </>
    ),
  },
]

/** An account's booked transactions, newest first: the description names each row. */
export function TransactionsTable({ transactions }: { transactions: Transaction[] }) {
  return <DataTable caption="Transactions" columns={columns} rows={transactions} rowKey={(transaction) => transaction.id} />
}
