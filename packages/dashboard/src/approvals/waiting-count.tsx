import { paginate } from '@kassa/client'
import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect } from 'preact/hooks'
import { kassa } from '../api/kassa'
import type { ApprovalStep, CreditTransfer, DirectDebit, Session } from '../api/types'
import { useLoad, type Loaded } from '../api/use-load'
import { approvableStep } from './approvable-step'

/** A payment waiting for a step the signed-in person may approve, and that step. */
export type WaitingApproval =
  | { kind: 'CREDIT_TRANSFER'; payment: CreditTransfer; step: ApprovalStep }
  | { kind: 'DIRECT_DEBIT'; payment: DirectDebit; step: ApprovalStep }

type WaitingState = Loaded<WaitingApproval[]> & { reload: () => void }

const WaitingContext = createContext<WaitingState>({ status: 'loading', reload: () => undefined })

/** The payments waiting for the signed-in person (the Approvals page), and their count (the navigation). */
export function useWaitingApprovals(): WaitingState {
  return useContext(WaitingContext)
}

/** How often the count in the navigation is brought up to date while the page is open. */
const REFRESH_MILLISECONDS = 60_000

/**
 * The API has no "waiting for me" filter: every CREATED payment of each kind the person may approve is
 * read (all pages, 500 at a time) and kept where a step is theirs to approve (approvableStep). Oldest
 * requested date first: those are due soonest.
 */
async function loadWaiting(session: Session): Promise<WaitingApproval[]> {
  const approver = { userId: session.user.id, roleId: session.role.id }
  const may = (permission: string) => session.permissions.includes(permission)
  const waiting: WaitingApproval[] = []
  const query = { status: 'CREATED' as const, limit: 500 }
  if (may('credit_transfers:read') && may('credit_transfers:approve')) {
    for await (const payment of paginate(kassa, '/payments/v2/credit-transfers', { query })) {
      const step = approvableStep(payment, approver)
      if (step) waiting.push({ kind: 'CREDIT_TRANSFER', payment, step })
    }
  }
  if (may('direct_debits:read') && may('direct_debits:approve')) {
    for await (const payment of paginate(kassa, '/payments/v2/direct-debits', { query })) {
      const step = approvableStep(payment, approver)
      if (step) waiting.push({ kind: 'DIRECT_DEBIT', payment, step })
    }
  }
  return waiting.sort((a, b) => a.payment.date.localeCompare(b.payment.date) || a.payment.created.localeCompare(b.payment.created))
}

export function WaitingApprovalsProvider({ session, children }: { session: Session; children: ComponentChildren }) {
  const state = useLoad(() => loadWaiting(session), [session.id, session.role.id])
  useEffect(() => {
    const refresh = () => document.visibilityState === 'visible' && state.reload()
    const timer = window.setInterval(refresh, REFRESH_MILLISECONDS)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      window.clearInterval(timer)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [state.reload])
  return <WaitingContext.Provider value={state}>{children}</WaitingContext.Provider>
}
