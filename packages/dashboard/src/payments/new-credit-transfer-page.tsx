import { useLoad } from '../api/use-load'
import { useOwnAccounts } from '../accounts/own-accounts'
import { Link } from '../router/link'
import { Loadable } from '../ui/loadable'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { sandboxToday } from './bank-date'
import { CreditTransferForm } from './credit-transfer-form'

/** /payments/credit-transfers/new: the form, once the own accounts and the bank's date are known. */
export function NewCreditTransferPage() {
  const accounts = useOwnAccounts()
  const today = useLoad(sandboxToday, [])
  return (
    <>
      <p class="breadcrumb">
        Payments › <Link to="/payments">Credit transfers</Link>
      </p>
      <PageHeader title="New credit transfer" />
      <p class="page-intro">The transfer waits for approval once created; the approval chain that matches it says by whom.</p>
      <Loadable state={accounts} what="Loading your accounts…">
        {(own) =>
          own.length === 0 ? (
            <EmptyState title="There is no account to pay from">Register your bank account first (POST /financial-data/v2/accounts).</EmptyState>
          ) : today.status === 'ready' ? (
            <CreditTransferForm accounts={own} sandboxToday={today.data} />
          ) : null
        }
      </Loadable>
    </>
  )
}
