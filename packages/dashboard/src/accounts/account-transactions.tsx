import { useListPage } from '../api/use-list-page'
import { useLocation } from '../router/router'
import { EmptyState } from '../ui/notices'
import { PagedList } from '../ui/paged-list'
import { currencyDigits } from '../payments/amount-entry'
import type { Account } from './account-types'
import { TransactionFilterBar, transactionFiltersOf, transactionListQuery } from './transaction-filters'
import { TransactionsTable } from './transactions-table'

/** The account's booked transactions, newest first, filtered and paged in the address. */
export function AccountTransactions({ account }: { account: Account }) {
  const filters = transactionFiltersOf(useLocation().query)
  const digits = currencyDigits(account.currency)
  const page = useListPage('/financial-data/v2/transactions', { query: { accountId: account.id, ...transactionListQuery(filters, digits) } })
  const filtered = Object.values(filters).some((value) => value !== '')

  return (
    <section class="panel" aria-labelledby="transactions">
      <h2 id="transactions">Transactions</h2>
      <TransactionFilterBar filters={filters} currency={account.currency} digits={digits} />
      <PagedList
        page={page}
        what="Loading transactions…"
        empty={
          filtered ? (
            <EmptyState title="No transactions match these filters">Change the filters, or clear them.</EmptyState>
          ) : (
            <EmptyState title="No transactions yet">Transactions appear as the bank books them, or when you import a statement of this account.</EmptyState>
          )
        }
      >
        {(items) => <TransactionsTable transactions={items} />}
      </PagedList>
    </section>
  )
}
