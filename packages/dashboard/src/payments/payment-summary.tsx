import type { ComponentChildren } from 'preact'
import { useDirectory } from '../api/directory'
import type { Payment } from '../api/types'
import { accountLabel } from '../format/account'
import { Amount, CalendarDate, Timestamp } from '../format/format'
import { StatusBadge } from './status-badge'

function Fact({ term, children }: { term: string; children: ComponentChildren }) {
  return (
    <div class="fact">
      <dt>{term}</dt>
      <dd>{children}</dd>
    </div>
  )
}

function Party({ holder, account }: { holder: Payment['sourceHolder']; account: Payment['source'] }) {
  return (
    <>
      <span class="primary-text">{holder.legalName}</span>
      <span class="mono">{accountLabel(account)}</span>
    </>
  )
}

/**
 * The facts of a payment: amount and status first (the status announced as it changes, for the page
 * follows a payment on its way), then both sides, the dates, and who created it.
 */
export function PaymentSummary({ payment }: { payment: Payment }) {
  const directory = useDirectory()
  return (
    <dl class="facts">
      <Fact term="Amount">
        <span class="amount-large">
          <Amount amount={payment.amount} />
        </span>
      </Fact>
      <Fact term="Status">
        <span role="status">
          <StatusBadge status={payment.status} />
        </span>
        {payment.statusReason && (
          <span class="secondary">
            {payment.statusReason.code}
            {payment.statusReason.message ? `: ${payment.statusReason.message}` : ''}
          </span>
        )}
      </Fact>
      <Fact term="From">
        <Party holder={payment.sourceHolder} account={payment.source} />
      </Fact>
      <Fact term="To">
        <Party holder={payment.destinationHolder} account={payment.destination} />
      </Fact>
      <Fact term="Requested date">
        <CalendarDate date={payment.date} />
      </Fact>
      <Fact term="Scheme">{payment.scheme}</Fact>
      {'mandate' in payment && payment.mandate && (
        <Fact term="Mandate">
          {payment.mandate.mandateReference}
          <span class="secondary">Creditor {payment.mandate.creditorReference}</span>
        </Fact>
      )}
      <Fact term="Created">
        <Timestamp at={payment.created} />
        <span class="secondary">by {directory.userName(payment.creatorUserId)}</span>
      </Fact>
      {payment.externalId && <Fact term="External id">{payment.externalId}</Fact>}
      <Fact term="Id">
        <code class="request-id">{payment.id}</code>
      </Fact>
    </dl>
  )
}
