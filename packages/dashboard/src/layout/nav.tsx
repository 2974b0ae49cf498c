import { totalCount, useWaitingCounts, WaitingPill } from '../approvals/waiting-count'
import { Link } from '../router/link'
import { useLocation } from '../router/router'

/** The count on the Approvals link: how many payments wait for the signed-in person (both kinds). */
function WaitingCount() {
  const counts = useWaitingCounts()
  return <WaitingPill count={counts.status === 'ready' ? totalCount(counts.data) : undefined} />
}

/** The dashboard's sections, in the order a treasury team's day goes. */
const SECTIONS = [
  { to: '/approvals', label: 'Approvals', Extra: WaitingCount },
  { to: '/payments', label: 'Payments' },
  { to: '/counterparties', label: 'Counterparties' },
  { to: '/accounts', label: 'Accounts' },
  { to: '/webhooks', label: 'Webhooks' },
  { to: '/settings', label: 'Settings' },
]

export function Nav() {
  const { path } = useLocation()
  return (
    <nav class="nav" aria-label="Main">
      <ul>
        {SECTIONS.map(({ to, label, Extra }) => {
          const current = path === to || path.startsWith(`${to}/`)
          return (
            <li key={to}>
              <Link to={to} class="nav-link" aria-current={current ? 'page' : undefined}>
                <span>{label}</span>
                {Extra && <Extra />}
              </Link>
            </li>
          )
        })}
      </ul>
    </nav>
  )
}
