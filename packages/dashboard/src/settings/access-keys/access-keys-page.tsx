import { useEffect, useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { problemOf, type Problem } from '../../api/problem'
import { useListPage, withFilters } from '../../api/use-list-page'
import { Timestamp } from '../../format/format'
import { navigate, useLocation } from '../../router/router'
import { useSession } from '../../session/session'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { DataTable, type Column } from '../../ui/data-table'
import { EmptyState, ErrorNotice } from '../../ui/notices'
import { PagedList } from '../../ui/paged-list'
import { SelectField } from '../../ui/select-field'
import { ShownOnce } from '../../ui/shown-once'
import { useUsers } from '../lists'
import { SettingsLayout } from '../settings-layout'
import { USER_TYPE_LABEL, type AccessKey, type User } from '../types'

/** The user whose keys are shown: the one in the URL (?user=…), else the signed-in person. */
function UserChoice({ userId, users }: { userId: string; users: User[] }) {
  const location = useLocation()
  return (
    <form class="filters" role="search" aria-label="Choose a user" onSubmit={(event) => event.preventDefault()}>
      <SelectField
        label="User"
        hint="Access keys belong to a user and act with that user’s role."
        value={userId}
        choices={users.map((user) => ({ value: user.id, label: `${user.name} (${USER_TYPE_LABEL[user.type].toLowerCase()})` }))}
        onChange={(user) => navigate(withFilters(location, { user }))}
      />
    </form>
  )
}

/**
 * Access keys: a user's active keys (never their secrets), "Create access key" with the secret shown
 * this once, and "Revoke" behind a confirmation. The user is chosen in the URL.
 */
export function AccessKeysPage() {
  const { session } = useSession()
  const location = useLocation()
  const userId = location.query.get('user') ?? session.user.id
  const users = useUsers()
  const page = useListPage('/iam/v2/users/{id}/access-keys', { path: { id: userId } })
  const [created, setCreated] = useState<{ accessKey: string; secret?: string } | undefined>(undefined)
  const [revoking, setRevoking] = useState<AccessKey | undefined>(undefined)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  // A secret shown for one user is not left on screen beside another's keys.
  useEffect(() => setCreated(undefined), [userId])
  const owner = users.status === 'ready' ? users.data.find((user) => user.id === userId) : undefined

  async function create() {
    setBusy(true)
    setProblem(undefined)
    try {
      const { data } = await kassa.POST('/iam/v2/users/{id}/access-keys', { params: { path: { id: userId } } })
      setCreated(data)
      page.reload()
    } catch (error) {
      setProblem(problemOf(error))
    }
    setBusy(false)
  }

  const columns: Column<AccessKey>[] = [
    { header: 'Access key', rowHeader: true, cell: (key) => <code>{key.accessKey}</code> },
    { header: 'Created', cell: (key) => <Timestamp at={key.created} /> },
    {
      header: 'Action',
      cell: (key) => (
        <button type="button" class="button" aria-haspopup="dialog" aria-label={`Revoke ${key.accessKey}`} onClick={() => setRevoking(key)}>
          Revoke
        </button>
      ),
    },
  ]

  return (
    <SettingsLayout
      title="Access keys"
      actions={
        <button type="button" class="button primary" disabled={busy} onClick={() => void create()}>
          Create access key
        </button>
      }
    >
      {users.status === 'ready' && <UserChoice userId={userId} users={users.data} />}
      {problem && <ErrorNotice problem={problem} title="No access key created" />}
      {created && (
        <ShownOnce
          title={`New access key${owner ? ` of ${owner.name}` : ''}`}
          secrets={[{ label: 'Access key', value: created.accessKey }, ...(created.secret ? [{ label: 'Secret', value: created.secret }] : [])]}
          onDone={() => setCreated(undefined)}
        >
          <p>Programs authenticate with HTTP Basic: the access key as user name, the secret as password.</p>
        </ShownOnce>
      )}
      <PagedList
        page={page}
        what="Loading access keys…"
        empty={
          <EmptyState title={`${owner?.name ?? 'This user'} has no active access keys`}>
            Create one for a program that calls the API as this user; people sign in with their password instead.
          </EmptyState>
        }
      >
        {(items) => <DataTable caption="Access keys" columns={columns} rows={items} rowKey={(key) => key.id} />}
      </PagedList>
      {revoking && (
        <ConfirmDialog
          title="Revoke access key"
          confirm="Revoke"
          onClose={() => setRevoking(undefined)}
          onConfirm={async () => {
            await kassa.DELETE('/iam/v2/users/{id}/access-keys/{keyId}', { params: { path: { id: userId, keyId: revoking.id } } })
            page.reload()
          }}
        >
          <p>
            Programs using <code>{revoking.accessKey}</code> are refused from their next request (within seconds on every server). This cannot be
            undone; a new key has a new secret.
          </p>
        </ConfirmDialog>
      )}
    </SettingsLayout>
  )
}
