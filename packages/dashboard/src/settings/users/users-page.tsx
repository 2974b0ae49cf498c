import { useState } from 'preact/hooks'
import { useDirectory } from '../../api/directory'
import { useListPage, withFilters } from '../../api/use-list-page'
import { Timestamp } from '../../format/format'
import { navigate, useLocation } from '../../router/router'
import { Badge } from '../../ui/badge'
import { DataTable, type Column } from '../../ui/data-table'
import { EmptyState } from '../../ui/notices'
import { PagedList } from '../../ui/paged-list'
import { choicesOf, SelectField } from '../../ui/select-field'
import { ShownOnce } from '../../ui/shown-once'
import { roleChoices, useRoles } from '../lists'
import { SettingsLayout } from '../settings-layout'
import { USER_TYPE_LABEL, type Role, type User } from '../types'
import { InviteForm } from './invite-form'
import { UserActions } from './user-actions'

/** A one-time password just given, shown once with how the person uses it. */
function GivenPassword({ given, onDone }: { given: { user: User; password: string | undefined }; onDone: () => void }) {
  const { user, password } = given
  return (
    <ShownOnce title={`One-time password for ${user.name}`} secrets={password ? [{ label: 'One-time password', value: password }] : []} onDone={onDone}>
      <p>
        {user.name} signs in at <code>{`${window.location.origin}/dashboard`}</code> as <strong>{user.email}</strong> with it, and then chooses their
        own password. Hand it over by another way than email if you can.
      </p>
    </ShownOnce>
  )
}

/** Active, or deactivated since when: keys, sessions and sign-in refused until reactivated. */
function UserStatus({ user }: { user: User }) {
  if (user.status === 'ACTIVE') return <span class="secondary">Active</span>
  return (
    <>
      <Badge>Deactivated</Badge>
      {user.deactivated && (
        <span class="secondary">
          since <Timestamp at={user.deactivated} short />
        </span>
      )}
    </>
  )
}

/**
 * Users: the organization's people and integrations, oldest first, filtered by role and type (in the
 * URL), each with their status; "Invite person" adds a person with a one-time password shown once; each
 * row changes a role, gives a new one-time password, deactivates or reactivates, or deletes.
 */
export function UsersPage() {
  const location = useLocation()
  const directory = useDirectory()
  const roleId = location.query.get('role') ?? ''
  const type = (location.query.get('type') ?? '') as User['type'] | ''
  const page = useListPage('/iam/v2/users', { query: { ...(roleId ? { roleId } : {}), ...(type ? { type } : {}) } })
  const roles = useRoles()
  const [inviting, setInviting] = useState(false)
  const [given, setGiven] = useState<{ user: User; password: string | undefined } | undefined>(undefined)
  const roleList: Role[] = roles.status === 'ready' ? roles.data : []

  function showPassword(user: User, password: string | undefined) {
    setInviting(false)
    setGiven({ user, password })
    page.reload()
  }

  const columns: Column<User>[] = [
    {
      header: 'Name',
      rowHeader: true,
      cell: (user) => (
        <>
          <span class="primary-text">{user.name}</span>
          {user.email && <span class="secondary">{user.email}</span>}
        </>
      ),
    },
    { header: 'Type', cell: (user) => USER_TYPE_LABEL[user.type] },
    { header: 'Role', cell: (user) => roleList.find((role) => role.id === user.roleId)?.name ?? directory.roleName(user.roleId) },
    { header: 'Status', cell: (user) => <UserStatus user={user} /> },
    { header: 'Added', cell: (user) => <Timestamp at={user.created} short /> },
    { header: 'Actions', cell: (user) => <UserActions user={user} roles={roleList} onChanged={page.reload} onPassword={showPassword} /> },
  ]

  return (
    <SettingsLayout
      title="Users"
      actions={
        <button type="button" class="button primary" disabled={inviting} onClick={() => setInviting(true)}>
          Invite person
        </button>
      }
    >
      {given && <GivenPassword given={given} onDone={() => setGiven(undefined)} />}
      {inviting && <InviteForm roles={roleList} onInvited={showPassword} onCancel={() => setInviting(false)} />}
      <form class="filters" role="search" aria-label="Filter users" onSubmit={(event) => event.preventDefault()}>
        <SelectField label="Role" value={roleId} none="Any role" choices={roleChoices(roleList)} onChange={(role) => navigate(withFilters(location, { role }))} />
        <SelectField
          label="Type"
          value={type}
          none="People and integrations"
          choices={choicesOf(USER_TYPE_LABEL)}
          onChange={(value) => navigate(withFilters(location, { type: value }))}
        />
      </form>
      <PagedList page={page} what="Loading users…" empty={<EmptyState title="No users match">Choose another role or type, or invite a person.</EmptyState>}>
        {(items) => <DataTable caption="Users" columns={columns} rows={items} rowKey={(user) => user.id} />}
      </PagedList>
    </SettingsLayout>
  )
}
