import { accountLabel } from '../format/account'
import { Amount, CalendarDate, Timestamp } from '../format/format'
import { KIND_LABEL, partiesOf } from '../payments/parties'
import { DataTable, type Column } from '../ui/data-table'
import { ApprovalActions } from './approval-actions'
import { StepList } from './step-list'
import type { WaitingApproval } from './waiting-approval'

const summaryId = (item: WaitingApproval) => `payment-${item.payment.id}`

/** The payments waiting for the signed-in person: one row each, densest facts first, the decision last. */
export function ApprovalsTable({
  items,
  canApprove,
  onDecided,
}: {
  items: WaitingApproval[]
  canApprove: boolean
  onDecided: (item: WaitingApproval, what: 'Approved' | 'Rejected') => void
}) {
  const columns: Column<WaitingApproval>[] = [
    {
      header: 'Date',
      cell: (item) => (
        <>
          <CalendarDate date={item.payment.date} />
          <span class="secondary">
            Created <Timestamp at={item.payment.created} short />
          </span>
        </>
      ),
    },
    {
      header: 'Counterparty',
      cell: (item) => {
        const { counterparty } = partiesOf(item.kind, item.payment)
        return (
          <>
            <span class="primary-text">{counterparty.name}</span>
            <span class="secondary mono account-id">{accountLabel(counterparty.account)}</span>
          </>
        )
      },
    },
    {
      header: 'Account',
      cell: (item) => (
        <span class="mono account-id">{accountLabel(partiesOf(item.kind, item.payment).ownAccount)}</span>
      ),
    },
    {
      header: 'Reference',
      rowHeader: true,
      cell: (item) => (
        <>
          <span id={summaryId(item)} class="primary-text">
            {item.payment.reference}
          </span>
          <span class="secondary">
            {KIND_LABEL[item.kind]} · {item.payment.scheme}
          </span>
        </>
      ),
    },
    { header: 'Amount', align: 'end', cell: (item) => <Amount amount={item.payment.amount} /> },
    { header: 'Approval steps', cell: (item) => <StepList steps={item.payment.approvalSteps} mine={item.step.id} /> },
    {
      header: 'Decision',
      cell: (item) => (
        <ApprovalActions item={item} canApprove={canApprove} describedBy={summaryId(item)} onDecided={(what) => onDecided(item, what)} />
      ),
    },
  ]
  return <DataTable caption="Payments waiting for your approval" columns={columns} rows={items} rowKey={(item) => item.payment.id} />
}
