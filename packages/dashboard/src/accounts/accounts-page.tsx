import { useListPage } from '../api/use-list-page'
import { useLoad } from '../api/use-load'
import { accountLabel } from '../format/account'
import { Link } from '../router/link'
import { useSession } from '../session/session'
import { DataTable } from '../ui/data-table'
import { EmptyState, ErrorNotice } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { PagedList } from '../ui/paged-list'
import type { Account } from './account-types'
import { BalanceFigure } from './balance-cell'
import { latestBalances, type CurrentBalances } from './latest-balances'
import { accountName } from './own-accounts'

function AccountsTable({ accounts, balances }: { accounts: Account[]; balances: Map<string, CurrentBalances> | undefined }) {
  return (
    <DataTable
      caption="Own accounts"
      columns={[
        {
          header: 'Account',
          rowHeader: true,
          cell: (account) => (
            <>
              <Link to={`/accounts/${account.id}`}>{accountName(account)}</Link>
              <span class="secondary">
                {account.bank.name}
                {account.fictive ? ' · sandbox' : ''}
              </span>
            </>
          ),
        },
        { header: 'IBAN', cell: (account) => <span class="mono">{accountLabel(account)}</span> },
        { header: 'Currency', cell: (account) => account.currency },
        { header: 'Booked balance', align: 'end', cell: (account) => <BalanceFigure balance={balances?.get(account.id)?.booked} /> },
        { header: 'Available balance', align: 'end', cell: (account) => <BalanceFigure balance={balances?.get(account.id)?.available} /> },
      ]}
      rows={accounts}
      rowKey={(account) => account.id}
    />
  )
}

/** Accounts: the organization's own accounts with their latest booked and available balances, a page at a time. */
export function AccountsPage() {
  const { session } = useSession()
  const page = useListPage('/financial-data/v2/accounts')
  const balances = useLoad(() => latestBalances(), [])

  return (
    <>
      <PageHeader title="Accounts">
        {session.permissions.includes('statements:create') && (
          <Link class="button" to="/accounts/import">
            Import statement
          </Link>
        )}
      </PageHeader>
      <p class="page-intro">Balances as the banks last reported them. Open an account for its balance history and transactions.</p>
      {balances.status === 'error' && <ErrorNotice problem={balances.problem} title="Could not load the balances" />}
      <PagedList
        page={page}
        what="Loading accounts…"
        empty={
          <EmptyState title="No accounts yet">
            Register an account held at a bank through the API, then import its statements here.
          </EmptyState>
        }
      >
        {(items) => <AccountsTable accounts={items} balances={balances.status === 'ready' ? balances.data : undefined} />}
      </PagedList>
    </>
  )
}
