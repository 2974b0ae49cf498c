import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect } from 'preact/hooks'
import { kassa } from '../api/kassa'
import type { Session } from '../api/types'
import { useLoad, type Loaded } from '../api/use-load'
import type { PaymentKind } from '../payments/parties'

/** How many payments of a kind wait for the person: `count`, and `more` when there are more than one request reads. */
export interface KindCount {
  count: number
  more: boolean
}

export type WaitingCounts = Record<PaymentKind, KindCount>

type CountState = Loaded<WaitingCounts> & { reload: () => void }

const CountContext = createContext<CountState>({ status: 'loading', reload: () => undefined })

/** The counts in the navigation and on the Approvals page's tabs, and `reload` for after a decision. */
export function useWaitingCounts(): CountState {
  return useContext(CountContext)
}

/** How often the counts are brought up to date while the dashboard is open and visible. */
const REFRESH_MILLISECONDS = 60_000

/** One request per kind reads at most this many: beyond it the navigation says "100+". */
export const COUNT_LIMIT = 100

/** The kinds the person may both list and approve; for others no payment is approvable (the API says the same). */
export function approvableKinds(session: Session): PaymentKind[] {
  const may = (permission: string) => session.permissions.includes(permission)
  return [
    ...(may('credit_transfers:read') && may('credit_transfers:approve') ? ['CREDIT_TRANSFER' as const] : []),
    ...(may('direct_debits:read') && may('direct_debits:approve') ? ['DIRECT_DEBIT' as const] : []),
  ]
}

/** One page of approvableBy=me per kind (the API chooses the payments, by its approval rules), so a count costs one small read. */
async function loadCounts(session: Session): Promise<WaitingCounts> {
  const query = { approvableBy: 'me' as const, limit: COUNT_LIMIT }
  const kinds = approvableKinds(session)
  const none: KindCount = { count: 0, more: false }
  const countOf = ({ items, nextToken }: { items: unknown[]; nextToken: string }): KindCount => ({ count: items.length, more: nextToken !== '' })
  const [creditTransfers, directDebits] = await Promise.all([
    kinds.includes('CREDIT_TRANSFER') ? kassa.GET('/payments/v2/credit-transfers', { params: { query } }).then(({ data }) => countOf(data)) : none,
    kinds.includes('DIRECT_DEBIT') ? kassa.GET('/payments/v2/direct-debits', { params: { query } }).then(({ data }) => countOf(data)) : none,
  ])
  return { CREDIT_TRANSFER: creditTransfers, DIRECT_DEBIT: directDebits }
}

/** Both kinds' counts as one: what the navigation shows. */
export function totalCount(counts: WaitingCounts): KindCount {
  return { count: counts.CREDIT_TRANSFER.count + counts.DIRECT_DEBIT.count, more: counts.CREDIT_TRANSFER.more || counts.DIRECT_DEBIT.more }
}

export function WaitingCountProvider({ session, children }: { session: Session; children: ComponentChildren }) {
  const state = useLoad(() => loadCounts(session), [session.id, session.role.id])
  useEffect(() => {
    const refresh = () => document.visibilityState === 'visible' && state.reload()
    const timer = window.setInterval(refresh, REFRESH_MILLISECONDS)
    document.addEventListener('visibilitychange', refresh)
    return () => {
      window.clearInterval(timer)
      document.removeEventListener('visibilitychange', refresh)
    }
  }, [state.reload])
  return <CountContext.Provider value={state}>{children}</CountContext.Provider>
}

/** A count as a pill, named for screen readers: a link or tab reads as "Approvals, 4 waiting". Nothing for none. */
export function WaitingPill({ count }: { count: KindCount | undefined }) {
  if (!count || count.count === 0) return null
  const text = count.more ? `${count.count}+` : String(count.count)
  return (
    <>
      <span class="nav-count" aria-hidden="true">
        {text}
      </span>
      <span class="visually-hidden"> {text} waiting</span>
    </>
  )
}
