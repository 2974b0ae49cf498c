import { useState } from 'preact/hooks'
import { useOwnAccounts } from '../accounts/own-accounts'
import { PAGE_TOKEN, useListPage } from '../api/use-list-page'
import { formatMoney } from '../format/money'
import { LOCALE } from '../format/format'
import { PaymentFilterBar } from '../payments/payment-filters'
import { amountCurrency, hasFilters, paymentFiltersOf, paymentListQuery } from '../payments/payment-list-query'
import { KIND_VIEWS, kindView, paymentPath, type KindView } from '../payments/payment-kinds'
import { UnknownKind } from '../payments/payments-page'
import { Link } from '../router/link'
import { useLocation, withQuery } from '../router/router'
import { useSession } from '../session/session'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { PagedList } from '../ui/paged-list'
import { ApprovalsTable } from './approvals-table'
import { waitingApprovals, type WaitingApproval } from './waiting-approval'
import { approvableKinds, useWaitingCounts, WaitingPill } from './waiting-count'

/** The Approvals tab of a kind: credit transfers at /approvals (the work done most), direct debits at /approvals/direct-debits. */
const approvalsPath = (view: KindView) => (view.kind === 'CREDIT_TRANSFER' ? '/approvals' : `/approvals/${view.segment}`)

/** One tab per kind the person may approve, each with its count; the filters stay when the tab changes. */
function KindTabs({ current, views }: { current: KindView; views: KindView[] }) {
  const location = useLocation()
  const counts = useWaitingCounts()
  return (
    <nav class="tabs" aria-label="Payment kinds">
      {views.map((view) => (
        <Link key={view.kind} class="tab" to={withQuery({ ...location, path: approvalsPath(view) }, { [PAGE_TOKEN]: undefined })} aria-current={view === current ? 'page' : undefined}>
          {view.plural}
          <WaitingPill count={counts.status === 'ready' ? counts.data[view.kind] : undefined} />
        </Link>
      ))}
    </nav>
  )
}

/**
 * The payments of one kind waiting for a step the person may approve: the API's approvableBy=me, filtered and
 * paged like the Payments lists (filters and page in the address), newest requested date first.
 */
function WaitingList({ view, views }: { view: KindView; views: KindView[] }) {
  const { session } = useSession()
  const counts = useWaitingCounts()
  // The list has one status, CREATED: a status in the address is not this page's.
  const filters = { ...paymentFiltersOf(useLocation().query), status: '' as const }
  const ownAccounts = useOwnAccounts()
  const accounts = ownAccounts.status === 'ready' ? ownAccounts.data : []
  const currency = amountCurrency(filters, accounts)
  const query = { ...paymentListQuery(filters, currency), approvableBy: 'me' as const }
  const path = view.kind === 'CREDIT_TRANSFER' ? '/payments/v2/credit-transfers' : '/payments/v2/direct-debits'
  const page = useListPage(path, { query })
  const [decided, setDecided] = useState<{ text: string; item: WaitingApproval } | undefined>(undefined)
  // The organization's setting (issue 11): only a session signed in with a TOTP code may approve.
  const needsSecondFactor = session.approvalsRequireSecondFactor && !session.secondFactor

  function refresh() {
    page.reload()
    counts.reload()
  }
  function afterDecision(item: WaitingApproval, what: 'Approved' | 'Rejected') {
    setDecided({ text: `${what}: ${item.payment.reference} (${formatMoney(item.payment.amount, LOCALE)})`, item })
    refresh()
  }

  return (
    <>
      <PageHeader title="Approvals">
        <button type="button" class="button" onClick={refresh}>
          Refresh
        </button>
      </PageHeader>
      <p class="page-intro">Credit transfers and direct debits waiting for a step you may approve. Newest requested date first.</p>
      {needsSecondFactor && (
        <p class="notice info">
          Your organization lets only people signed in with an authentication code approve payments. Sign out and sign in again with the code of
          your authenticator app to approve; you can still reject.
        </p>
      )}
      {/* What was decided, announced; the payment leaves the list, and its page follows it on (to the bank, RECONCILED). */}
      <p class={decided ? 'notice success' : 'visually-hidden'}>
        <span role="status">{decided?.text ?? ''}</span>
        {decided && (
          <>
            {' '}
            <Link to={paymentPath(decided.item.kind, decided.item.payment.id)}>Follow the payment</Link>
          </>
        )}
      </p>
      {views.length > 1 && <KindTabs current={view} views={views} />}
      <PaymentFilterBar filters={filters} accounts={accounts} currency={currency} byStatus={false} />
      <PagedList
        page={page}
        what="Loading approvals…"
        empty={
          hasFilters(filters) ? (
            <EmptyState title={`No ${view.plural.toLowerCase()} waiting for you match these filters`}>Change the filters, or clear them.</EmptyState>
          ) : (
            <EmptyState title="Nothing is waiting for your approval">
              Payments appear here when an approval chain names you or your role for a step that is still open. Payments you created yourself
              appear only where the chain lets creators approve.
            </EmptyState>
          )
        }
      >
        {(items) => <ApprovalsTable items={waitingApprovals(session, view.kind, items)} canApprove={!needsSecondFactor} onDecided={afterDecision} />}
      </PagedList>
    </>
  )
}

/** Approvals: each waiting payment approved or rejected where it stands; a decided one leaves the list and the counts. */
export function ApprovalsPage({ params }: { params: Record<string, string> }) {
  const { session } = useSession()
  const kinds = approvableKinds(session)
  const views = KIND_VIEWS.filter((view) => kinds.includes(view.kind))
  const view = kindView(params.kind ?? 'credit-transfers')
  if (!view) return <UnknownKind />
  if (views.length === 0 || !views.includes(view)) {
    return (
      <>
        <PageHeader title="Approvals" />
        <EmptyState title="Nothing is waiting for your approval">
          {views.length === 0 ? 'Your role does not approve payments.' : <Link to={approvalsPath(views[0]!)}>Show the {views[0]!.plural.toLowerCase()} waiting for you</Link>}
        </EmptyState>
      </>
    )
  }
  // A component per kind: switching tabs starts its list afresh.
  return <WaitingList key={view.kind} view={view} views={views} />
}
