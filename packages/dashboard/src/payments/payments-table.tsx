import type { Payment } from '../api/types'
import { accountLabel } from '../format/account'
import { Amount, CalendarDate } from '../format/format'
import { Link } from '../router/link'
import { DataTable, type Column } from '../ui/data-table'
import { partiesOf } from './parties'
import { paymentPath, type KindView } from './payment-kinds'
import { StatusBadge } from './status-badge'

/** One kind's payments, a row each: the reference (a link to the payment) names the row. */
export function PaymentsTable({ view, payments }: { view: KindView; payments: Payment[] }) {
  const columns: Column<Payment>[] = [
    { header: 'Date', cell: (payment) => <CalendarDate date={payment.date} /> },
    {
      header: 'Counterparty',
      cell: (payment) => {
        const { counterparty } = partiesOf(view.kind, payment)
        return (
          <>
            <span class="primary-text">{counterparty.name}</span>
            <span class="secondary mono">{accountLabel(counterparty.account)}</span>
          </>
        )
      },
    },
    { header: 'Account', cell: (payment) => <span class="mono account-id">{accountLabel(partiesOf(view.kind, payment).ownAccount)}</span> },
    { header: 'Reference', rowHeader: true, cell: (payment) => <Link to={paymentPath(view.kind, payment.id)}>{payment.reference}</Link> },
    { header: 'Amount', align: 'end', cell: (payment) => <Amount amount={payment.amount} /> },
    { header: 'Status', cell: (payment) => <StatusBadge status={payment.status} /> },
  ]
  return <DataTable caption={view.plural} columns={columns} rows={payments} rowKey={(payment) => payment.id} />
}
