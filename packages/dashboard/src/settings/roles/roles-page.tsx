import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { useListPage } from '../../api/use-list-page'
import { Badge } from '../../ui/badge'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { DataTable, type Column } from '../../ui/data-table'
import { PagedList } from '../../ui/paged-list'
import { SettingsLayout } from '../settings-layout'
import type { Role } from '../types'
import { permissionGroups } from './permissions'
import { RoleForm } from './role-form'

function Permissions({ role }: { role: Role }) {
  return (
    <details class="permission-summary">
      <summary>{role.permissions.length === 1 ? '1 permission' : `${role.permissions.length} permissions`}</summary>
      <ul class="plain-list">
        {permissionGroups(role.permissions).map((group) => (
          <li key={group.resource}>
            <strong>{group.label}</strong>: {group.permissions.map(({ action }) => action.toLowerCase()).join(', ')}
          </li>
        ))}
      </ul>
    </details>
  )
}

/**
 * Roles: the built-in owner, admin and read-only, then the organization's own, oldest first. "New role"
 * and a custom role's "Edit" open the form above the list; "Delete" asks first (the API refuses while
 * someone holds the role or a chain names it, and says so).
 */
export function RolesPage() {
  const page = useListPage('/iam/v2/roles')
  const [editing, setEditing] = useState<Role | 'new' | undefined>(undefined)
  const [deleting, setDeleting] = useState<Role | undefined>(undefined)
  const [done, setDone] = useState('')

  function saved(role: Role) {
    setDone(`Saved role ${role.name}.`)
    setEditing(undefined)
    page.reload()
  }

  const columns: Column<Role>[] = [
    {
      header: 'Role',
      rowHeader: true,
      cell: (role) => (
        <>
          <span class="primary-text">{role.name}</span>
          {role.description && <span class="secondary">{role.description}</span>}
        </>
      ),
    },
    {
      header: 'Kind',
      cell: (role) => (
        <span class="tags">
          <Badge tone={role.builtin ? 'neutral' : 'info'}>{role.builtin ? 'Built-in' : 'Custom'}</Badge>
          {role.owner && <Badge tone="waiting">Owner rights</Badge>}
        </span>
      ),
    },
    { header: 'Permissions', cell: (role) => <Permissions role={role} /> },
    {
      header: 'Actions',
      cell: (role) =>
        role.builtin ? (
          <span class="secondary">Built in: read-only</span>
        ) : (
          <div class="button-row">
            <button type="button" class="button" aria-label={`Edit ${role.name}`} onClick={() => setEditing(role)}>
              Edit
            </button>
            <button type="button" class="button" aria-haspopup="dialog" aria-label={`Delete ${role.name}`} onClick={() => setDeleting(role)}>
              Delete
            </button>
          </div>
        ),
    },
  ]

  return (
    <SettingsLayout
      title="Roles"
      actions={
        <button type="button" class="button primary" disabled={editing !== undefined} onClick={() => setEditing('new')}>
          New role
        </button>
      }
    >
      <p class={done ? 'notice success' : 'visually-hidden'} role="status">
        {done}
      </p>
      {editing && <RoleForm key={editing === 'new' ? 'new' : editing.etag} role={editing === 'new' ? undefined : editing} onSaved={saved} onCancel={() => setEditing(undefined)} />}
      <PagedList page={page} what="Loading roles…">
        {(items) => <DataTable caption="Roles" columns={columns} rows={items} rowKey={(role) => role.id} />}
      </PagedList>
      {deleting && (
        <ConfirmDialog
          title={`Delete role ${deleting.name}`}
          confirm="Delete"
          onClose={() => setDeleting(undefined)}
          onConfirm={async () => {
            await kassa.DELETE('/iam/v2/roles/{id}', { params: { path: { id: deleting.id }, header: { 'if-match': deleting.etag } } })
            setDone(`Deleted role ${deleting.name}.`)
            page.reload()
          }}
        >
          <p>Kassa refuses while someone holds the role or an approval chain names it: give them another role, or change the chain, first.</p>
        </ConfirmDialog>
      )}
    </SettingsLayout>
  )
}
