import type { ComponentChildren } from 'preact'
import { Link } from '../router/link'
import { useLocation } from '../router/router'
import { PageHeader } from '../ui/page-header'

/** The parts of Settings, each a page of its own (so each is a link, and Back moves between them). */
const PARTS = [
  { to: '/settings/users', label: 'Users' },
  { to: '/settings/roles', label: 'Roles' },
  { to: '/settings/approval-chains', label: 'Approval chains' },
  { to: '/settings/access-keys', label: 'Access keys' },
  { to: '/settings/sign-in', label: 'Your sign-in' },
]

/** Where the navigation's Settings link leads: the first part (routes.tsx shows the users there). */
const SETTINGS = '/settings'

/** A Settings page: the parts of Settings as tabs, then the page's own heading and actions. */
export function SettingsLayout({ title, actions, children }: { title: string; actions?: ComponentChildren; children: ComponentChildren }) {
  const { path } = useLocation()
  const current = (to: string, index: number) => path === to || path.startsWith(`${to}/`) || (path === SETTINGS && index === 0)
  return (
    <>
      <nav class="tabs" aria-label="Settings">
        {PARTS.map(({ to, label }, index) => (
          <Link key={to} to={to} aria-current={current(to, index) ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      <PageHeader title={title}>{actions}</PageHeader>
      {children}
    </>
  )
}
