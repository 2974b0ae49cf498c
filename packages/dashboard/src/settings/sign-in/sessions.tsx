import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { useListPage } from '../../api/use-list-page'
import { Timestamp } from '../../format/format'
import { useSession } from '../../session/session'
import { Badge } from '../../ui/badge'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { DataTable, type Column } from '../../ui/data-table'
import { PagedList } from '../../ui/paged-list'
import type { SessionSummary } from '../types'

/**
 * The signed-in person's live sessions, oldest first: where and when each signed in, when it was last
 * used and when it expires. Any other one can be ended (its next request answers 401); this one is
 * ended by "Sign out".
 */
export function Sessions() {
  const { session } = useSession()
  const page = useListPage('/iam/v2/users/{id}/sessions', { path: { id: session.user.id } })
  const [ending, setEnding] = useState<SessionSummary | undefined>(undefined)

  const columns: Column<SessionSummary>[] = [
    {
      header: 'Signed in',
      rowHeader: true,
      cell: (summary) => (
        <>
          <Timestamp at={summary.created} />
          {summary.id === session.id && (
            <span class="secondary">
              <Badge tone="info">This session</Badge>
            </span>
          )}
        </>
      ),
    },
    {
      header: 'From',
      cell: (summary) => (
        <>
          <span class="mono">{summary.address}</span>
          {summary.userAgent && (
            <span class="secondary user-agent" title={summary.userAgent}>
              {summary.userAgent}
            </span>
          )}
        </>
      ),
    },
    { header: 'Code', cell: (summary) => (summary.secondFactor ? 'With authentication code' : 'Password only') },
    { header: 'Last used', cell: (summary) => <Timestamp at={summary.lastSeen} short /> },
    { header: 'Expires', cell: (summary) => <Timestamp at={summary.idleExpires < summary.expires ? summary.idleExpires : summary.expires} short /> },
    {
      header: 'Action',
      cell: (summary) =>
        summary.id === session.id ? (
          <span class="secondary">Sign out to end it</span>
        ) : (
          <button type="button" class="button" aria-haspopup="dialog" aria-label={`End session from ${summary.address}`} onClick={() => setEnding(summary)}>
            End session
          </button>
        ),
    },
  ]

  return (
    <section class="section" aria-labelledby="sessions-title">
      <h2 id="sessions-title">Your sessions</h2>
      <PagedList page={page} what="Loading your sessions…">
        {(items) => <DataTable caption="Your sessions" columns={columns} rows={items} rowKey={(summary) => summary.id} />}
      </PagedList>
      {ending && (
        <ConfirmDialog
          title="End session"
          confirm="End session"
          onClose={() => setEnding(undefined)}
          onConfirm={async () => {
            await kassa.DELETE('/iam/v2/users/{id}/sessions/{sessionId}', { params: { path: { id: session.user.id, sessionId: ending.id } } })
            page.reload()
          }}
        >
          <p>
            The browser that signed in from {ending.address} <Timestamp at={ending.created} /> is signed out at its next request.
          </p>
        </ConfirmDialog>
      )}
    </section>
  )
}
