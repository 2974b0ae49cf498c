import { useEffect } from 'preact/hooks'
import { DirectoryProvider } from './api/directory'
import { WaitingCountProvider } from './approvals/waiting-count'
import { Layout } from './layout/layout'
import { matchPath, navigate, useLocation } from './router/router'
import { HOME, ROUTES } from './routes'
import { SessionGate } from './session/session-gate'
import { useSession } from './session/session'
import { EmptyState } from './ui/notices'
import { PageHeader } from './ui/page-header'

function CurrentPage() {
  const { path } = useLocation()
  useEffect(() => {
    if (path === '/') navigate(HOME, { replace: true })
  }, [path])
  if (path === '/') return null
  for (const { path: pattern, Page } of ROUTES) {
    const params = matchPath(pattern, path)
    if (params) return <Page params={params} />
  }
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title={`The dashboard has no page at ${path}`}>Choose a section from the navigation.</EmptyState>
    </>
  )
}

/** The pages a signed-in person sees, with what they share: names of people and roles, the count of waiting approvals. */
function SignedInApp() {
  const { session } = useSession()
  return (
    <DirectoryProvider permissions={session.permissions}>
      <WaitingCountProvider session={session}>
        <Layout>
          <CurrentPage />
        </Layout>
      </WaitingCountProvider>
    </DirectoryProvider>
  )
}

export function App() {
  return (
    <SessionGate>
      <SignedInApp />
    </SessionGate>
  )
}
