import { kassa } from '../api/kassa'
import { useLoad } from '../api/use-load'
import { accountLabel } from '../format/account'
import { Link } from '../router/link'
import { Loadable } from '../ui/loadable'
import { ErrorNotice } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import type { Account } from './account-types'
import { AccountTransactions } from './account-transactions'
import { BalanceFigure } from './balance-cell'
import { BalanceHistoryPanel } from './balance-history-panel'
import { latestBalances } from './latest-balances'
import { accountName } from './own-accounts'

function AccountDetail({ account }: { account: Account }) {
  const balances = useLoad(() => latestBalances(account.id), [account.id])
  const current = balances.status === 'ready' ? balances.data.get(account.id) : undefined
  return (
    <>
      <PageHeader title={accountName(account)} />
      <dl class="facts facts-row">
        <div class="fact">
          <dt>IBAN</dt>
          <dd class="mono">{accountLabel(account)}</dd>
        </div>
        <div class="fact">
          <dt>Bank</dt>
          <dd>
            {account.bank.name}
            {account.bank.bic && <span class="secondary mono">{account.bank.bic}</span>}
          </dd>
        </div>
        <div class="fact">
          <dt>Booked balance</dt>
          <dd>
            <BalanceFigure balance={current?.booked} />
          </dd>
        </div>
        <div class="fact">
          <dt>Available balance</dt>
          <dd>
            <BalanceFigure balance={current?.available} />
          </dd>
        </div>
      </dl>
      {balances.status === 'error' && <ErrorNotice problem={balances.problem} title="Could not load the balances" />}
      {balances.status !== 'loading' && <BalanceHistoryPanel accountId={account.id} accountName={accountName(account)} lastDay={current?.booked?.localDate} />}
      <AccountTransactions account={account} />
    </>
  )
}

/** /accounts/:id — one own account: its balances, their history as a chart, and its transactions. */
export function AccountPage({ params }: { params: Record<string, string> }) {
  const id = params.id!
  const account = useLoad(async () => (await kassa.GET('/financial-data/v2/accounts/{id}', { params: { path: { id } } })).data, [id])
  return (
    <>
      <p class="breadcrumb">
        <Link to="/accounts">Accounts</Link>
      </p>
      <Loadable state={account} what="Loading the account…">
        {(data) => <AccountDetail account={data} />}
      </Loadable>
    </>
  )
}
