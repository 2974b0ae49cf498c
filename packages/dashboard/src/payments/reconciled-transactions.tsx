import type { Problem } from '../api/problem'
import type { Payment } from '../api/types'
import type { Transaction } from '../accounts/account-types'
import { Amount, CalendarDate } from '../format/format'
import { Link } from '../router/link'
import { withQuery } from '../router/router'
import { ErrorNotice } from '../ui/notices'

/** Where a transaction is listed: its account's page, filtered to its booking day. */
function transactionOnAccount(transaction: Transaction): string {
  return withQuery({ path: `/accounts/${transaction.accountId}`, query: new URLSearchParams() }, { from: transaction.date, to: transaction.date })
}

/**
 * The bank transactions the payment was reconciled to (its attachedTransactions): what the bank booked,
 * with its references, and a link to it among its account's transactions.
 */
export function ReconciledTransactions({ payment, transactions }: { payment: Payment; transactions: Transaction[] | Problem }) {
  if (!Array.isArray(transactions)) return <ErrorNotice problem={transactions} title="Could not load the bank transaction" />
  if (transactions.length === 0) {
    return (
      <p class="section-note">
        {payment.status === 'REJECTED' || payment.status === 'FAILED' || payment.status === 'CANCELLED'
          ? 'None: this payment was not carried out.'
          : 'Not reconciled yet. Once the bank books this payment and Kassa matches it, the transaction appears here.'}
      </p>
    )
  }
  return (
    <>
      {transactions.map((transaction) => (
        <dl key={transaction.id} class="facts facts-compact">
          <div class="fact">
            <dt>Booked</dt>
            <dd>
              <CalendarDate date={transaction.date} />
              <span class="secondary">
                Value date <CalendarDate date={transaction.valueDate} />
              </span>
            </dd>
          </div>
          <div class="fact">
            <dt>Amount</dt>
            <dd>
              <Amount amount={transaction.amount} />
            </dd>
          </div>
          <div class="fact">
            <dt>Description</dt>
            <dd>{transaction.description}</dd>
          </div>
          <div class="fact">
            <dt>Bank reference</dt>
            <dd class="mono">{transaction.references.entryReference}</dd>
          </div>
          {transaction.references.endToEndId && (
            <div class="fact">
              <dt>End-to-end id</dt>
              <dd class="mono">{transaction.references.endToEndId}</dd>
            </div>
          )}
          <div class="fact">
            <dt>Account</dt>
            <dd>
              <Link to={transactionOnAccount(transaction)}>Show among the account’s transactions</Link>
            </dd>
          </div>
        </dl>
      ))}
    </>
  )
}
