import type { ComponentChildren } from 'preact'
import { Link } from '../router/link'
import { Nav } from './nav'
import { UserMenu } from './user-menu'

/**
 * Every signed-in page: a header (the name, who is signed in, Sign out), the navigation, and the page.
 * "Skip to content" is the first stop of the Tab key, so keyboard users pass the navigation in one step.
 */
export function Layout({ children }: { children: ComponentChildren }) {
  return (
    <div class="shell">
      <a class="skip-link" href="#content">
        Skip to content
      </a>
      <header class="topbar">
        <Link to="/approvals" class="brand">
          Kassa
        </Link>
        <UserMenu />
      </header>
      <Nav />
      <main id="content" class="content">
        {children}
      </main>
    </div>
  )
}
