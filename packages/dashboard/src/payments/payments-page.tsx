import { useOwnAccounts } from '../accounts/own-accounts'
import type { Payment } from '../api/types'
import { PAGE_TOKEN, useListPage } from '../api/use-list-page'
import { Link } from '../router/link'
import { useLocation, withQuery } from '../router/router'
import { useSession } from '../session/session'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { PagedList } from '../ui/paged-list'
import { PaymentFilterBar } from './payment-filters'
import { amountCurrency, hasFilters, paymentFiltersOf, paymentListQuery, type PaymentFilters } from './payment-list-query'
import { KIND_VIEWS, kindView, type KindView } from './payment-kinds'
import { PaymentsTable } from './payments-table'
import { statusLabel } from './status-badge'

/** An address under /payments that names no kind of payment. */
export function UnknownKind() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="Payments are credit transfers or direct debits">
        <Link to="/payments">Show the credit transfers</Link>
      </EmptyState>
    </>
  )
}

/** Credit transfers and direct debits, one tab each; the filters stay when the tab changes. */
function KindTabs({ current }: { current: KindView }) {
  const location = useLocation()
  return (
    <nav class="tabs" aria-label="Payment kinds">
      {KIND_VIEWS.map((view) => (
        <Link key={view.kind} class="tab" to={withQuery({ ...location, path: view.listPath }, { [PAGE_TOKEN]: undefined })} aria-current={view === current ? 'page' : undefined}>
          {view.plural}
        </Link>
      ))}
    </nav>
  )
}

/** What an empty list says: there are none yet, or none match the filters — and what to do. */
function NoPayments({ view, filters }: { view: KindView; filters: PaymentFilters }) {
  const plural = view.plural.toLowerCase()
  const onlyStatus = filters.status && !hasFilters({ ...filters, status: '' })
  if (onlyStatus) return <EmptyState title={`No ${plural} are ${statusLabel(filters.status as Payment['status']).toLowerCase()}`}>Choose another status, or any status.</EmptyState>
  if (hasFilters(filters)) return <EmptyState title={`No ${plural} match these filters`}>Change the filters, or clear them.</EmptyState>
  return (
    <EmptyState title={`No ${plural} yet`}>
      {view.kind === 'CREDIT_TRANSFER' ? 'Create one with “New credit transfer”, or through the API or the CLI.' : 'Direct debits created through the API appear here.'}
    </EmptyState>
  )
}

function PaymentList({ view }: { view: KindView }) {
  const { session } = useSession()
  const filters = paymentFiltersOf(useLocation().query)
  const ownAccounts = useOwnAccounts()
  // Accounts that cannot be read (a role without accounts:read) leave amounts in the address's currency, or EUR.
  const accounts = ownAccounts.status === 'ready' ? ownAccounts.data : []
  const currency = amountCurrency(filters, accounts)
  const path = view.kind === 'CREDIT_TRANSFER' ? '/payments/v2/credit-transfers' : '/payments/v2/direct-debits'
  const page = useListPage(path, { query: paymentListQuery(filters, currency) })

  return (
    <>
      <PageHeader title="Payments">
        {session.permissions.includes('credit_transfers:create') && (
          <Link class="button primary" to="/payments/credit-transfers/new">
            New credit transfer
          </Link>
        )}
      </PageHeader>
      <KindTabs current={view} />
      <PaymentFilterBar filters={filters} accounts={accounts} currency={currency} />
      <PagedList page={page} what={`Loading ${view.plural.toLowerCase()}…`} empty={<NoPayments view={view} filters={filters} />}>
        {(items) => <PaymentsTable view={view} payments={items} />}
      </PagedList>
    </>
  )
}

/**
 * Payments: credit transfers (/payments) or direct debits (/payments/direct-debits), newest date first,
 * filtered and paged — filters and page in the address.
 */
export function PaymentsPage({ params }: { params: Record<string, string> }) {
  const view = kindView(params.kind ?? 'credit-transfers')
  if (!view) return <UnknownKind />
  // A component per kind: switching tabs starts its list afresh.
  return <PaymentList key={view.kind} view={view} />
}
