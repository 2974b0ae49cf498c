import { Amount, CalendarDate } from '../format/format'
import { groupIban } from '../format/account'
import { Link } from '../router/link'
import { withQuery } from '../router/router'
import { DataTable } from '../ui/data-table'
import type { Account, ImportedStatement, StatementImport } from './account-types'
import { accountName } from './own-accounts'

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/** The days a statement covers, from its balances: where its transactions are found on the account's page. */
function statementTransactions(statement: ImportedStatement): string {
  const days = statement.balances.map((balance) => balance.localDate).sort()
  const all = { path: `/accounts/${statement.accountId}`, query: new URLSearchParams() }
  return days.length === 0 ? all.path : withQuery(all, { from: days[0], to: days[days.length - 1] })
}

/** What an import booked: the file's totals, then per statement its account, counts and recorded balances. */
export function ImportSummary({ result, accounts }: { result: StatementImport; accounts: Account[] }) {
  const nameOf = (id: string) => {
    const account = accounts.find((candidate) => candidate.id === id)
    return account ? accountName(account) : 'Account'
  }
  return (
    <section class="panel" aria-labelledby="import-summary">
      <h2 id="import-summary">Imported {result.messageType}</h2>
      <p class="notice success" role="status">
        {count(result.statementsFound, 'statement', 'statements')}: {count(result.transactionsBooked, 'transaction', 'transactions')} booked,{' '}
        {result.transactionsAlreadyPresent} already present{result.messageId ? ` (message ${result.messageId})` : ''}.
      </p>
      <DataTable
        caption="Imported statements"
        rows={result.statements}
        rowKey={(statement) => `${statement.accountId}/${statement.statementId}`}
        columns={[
          {
            header: 'Account',
            rowHeader: true,
            cell: (statement) => (
              <>
                <Link to={statementTransactions(statement)}>{nameOf(statement.accountId)}</Link>
                <span class="secondary mono">{statement.iban !== undefined ? groupIban(statement.iban) : statement.otherAccountId}</span>
              </>
            ),
          },
          { header: 'Statement', cell: (statement) => <span class="mono">{statement.statementId}</span> },
          { header: 'Entries', align: 'end', cell: (statement) => statement.entriesFound },
          { header: 'Booked', align: 'end', cell: (statement) => statement.transactionsBooked },
          { header: 'Already present', align: 'end', cell: (statement) => statement.transactionsAlreadyPresent },
          { header: 'Not booked', align: 'end', cell: (statement) => statement.entriesNotBooked },
          {
            header: 'Balances recorded',
            cell: (statement) => (
              <ul class="balance-list">
                {statement.balances.map((balance) => (
                  <li key={`${balance.code}/${balance.localDate}`}>
                    <abbr title={`${balance.type} ${balance.reportedType}`}>{balance.code}</abbr> <CalendarDate date={balance.localDate} /> <Amount amount={balance.amount} />
                  </li>
                ))}
              </ul>
            ),
          },
        ]}
      />
    </section>
  )
}
