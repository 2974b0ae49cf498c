import { useState } from 'preact/hooks'
import { formatMoney } from '../format/money'
import { LOCALE } from '../format/format'
import { useSession } from '../session/session'
import { Loadable } from '../ui/loadable'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { ApprovalsTable } from './approvals-table'
import { useWaitingApprovals, type WaitingApproval } from './waiting-approvals'

/**
 * Approvals: the credit transfers and direct debits waiting for a step the signed-in person may approve,
 * each approved or rejected where it stands. A decided payment leaves the list (and the count in the
 * navigation); what was decided is said in a status line that screen readers announce.
 */
export function ApprovalsPage() {
  const { session } = useSession()
  const waiting = useWaitingApprovals()
  const [decided, setDecided] = useState('')
  // The organization's setting (issue 11): only a session signed in with a TOTP code may approve.
  const needsSecondFactor = session.approvalsRequireSecondFactor && !session.secondFactor

  function afterDecision(item: WaitingApproval, what: 'Approved' | 'Rejected') {
    setDecided(`${what}: ${item.payment.reference} (${formatMoney(item.payment.amount, LOCALE)})`)
    waiting.reload()
  }

  return (
    <>
      <PageHeader title="Approvals">
        <button type="button" class="button" onClick={waiting.reload}>
          Refresh
        </button>
      </PageHeader>
      <p class="page-intro">Credit transfers and direct debits waiting for a step you may approve. Oldest requested date first.</p>
      {needsSecondFactor && (
        <p class="notice info">
          Your organization lets only people signed in with an authentication code approve payments. Sign out and sign in again with the code of
          your authenticator app to approve; you can still reject.
        </p>
      )}
      <p class={decided ? 'notice success' : 'visually-hidden'} role="status">
        {decided}
      </p>
      <Loadable state={waiting} what="Loading approvals…">
        {(items) =>
          items.length === 0 ? (
            <EmptyState title="Nothing is waiting for your approval">
              Payments appear here when an approval chain names you or your role for a step that is still open. Payments you created yourself
              appear only where the chain lets creators approve.
            </EmptyState>
          ) : (
            <ApprovalsTable items={items} canApprove={!needsSecondFactor} onDecided={afterDecision} />
          )
        }
      </Loadable>
    </>
  )
}
