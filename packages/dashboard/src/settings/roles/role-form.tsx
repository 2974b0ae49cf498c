import { patchResource, type JsonPatch } from '@kassa/client'
import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { detailFor, problemOf, type Problem } from '../../api/problem'
import { useSession } from '../../session/session'
import { Field } from '../../ui/field'
import { WriteProblem } from '../../ui/write-problem'
import type { Permission, Role } from '../types'
import { permissionGroups, permissionLabel } from './permissions'

type RolePatch = JsonPatch<'/iam/v2/roles/{id}'>

/** What changed, as the API takes it (ROLE_PATCH_RULES): the name, the whole permission set, the description. */
function rolePatch(role: Role, name: string, description: string, permissions: Permission[]): RolePatch {
  const operations: RolePatch = []
  if (name !== role.name) operations.push({ op: 'replace', path: '/name', value: name })
  const same = permissions.length === role.permissions.length && permissions.every((permission) => role.permissions.includes(permission))
  if (!same) operations.push({ op: 'replace', path: '/permissions', value: permissions })
  if (!description && role.description !== undefined) operations.push({ op: 'remove', path: '/description' })
  else if (description && description !== role.description) operations.push({ op: role.description === undefined ? 'add' : 'replace', path: '/description', value: description })
  return operations
}

/**
 * "New role" and a custom role's "Edit": a name, a description and the permissions as checkboxes, grouped
 * by resource. The choices are the signed-in person's own permissions (the API lets nobody grant what
 * they do not hold) and, when editing, those the role has already.
 */
export function RoleForm({ role, onSaved, onCancel }: { role?: Role; onSaved: (role: Role) => void; onCancel: () => void }) {
  const { session } = useSession()
  const [name, setName] = useState(role?.name ?? '')
  const [description, setDescription] = useState(role?.description ?? '')
  const [chosen, setChosen] = useState<Permission[]>(role?.permissions ?? [])
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const offered = [...new Set([...(session.permissions as Permission[]), ...(role?.permissions ?? [])])]
  const title = role ? `Edit role ${role.name}` : 'New role'

  function toggle(permission: Permission, on: boolean) {
    setChosen(on ? [...chosen, permission] : chosen.filter((other) => other !== permission))
  }

  async function save(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    // Kept in the order the API lists permissions, whatever the order they were ticked in.
    const permissions = offered.filter((permission) => chosen.includes(permission))
    try {
      const saved = role
        ? await patchResource(kassa, '/iam/v2/roles/{id}', { params: { path: { id: role.id } }, etag: role.etag, operations: rolePatch(role, name.trim(), description.trim(), permissions) })
        : (await kassa.POST('/iam/v2/roles', { body: { name: name.trim(), permissions, ...(description.trim() ? { description: description.trim() } : {}) } })).data
      onSaved(saved)
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <form class="form-card form-wide" onSubmit={save} aria-labelledby="role-form-title">
      <h2 id="role-form-title">{title}</h2>
      {problem && <WriteProblem problem={problem} title="The role was not saved" onReload={onCancel} />}
      <div class="field-pair">
        <Field label="Name" hint="Unique in your organization, e.g. “Payment approver”." error={detailFor(problem, 'name')?.error}>
          {(control) => <input {...control} required maxLength={64} value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field label="Description" hint="Optional: who holds it and why." error={detailFor(problem, 'description')?.error}>
          {(control) => <input {...control} maxLength={500} value={description} onInput={(event) => setDescription(event.currentTarget.value)} />}
        </Field>
      </div>
      <fieldset class="fieldset">
        <legend>Permissions</legend>
        {detailFor(problem, 'permissions') && <p class="field-error">{detailFor(problem, 'permissions')!.error}</p>}
        <div class="permission-groups">
          {permissionGroups(offered).map((group) => (
            <div key={group.resource} class="permission-group" role="group" aria-label={group.label}>
              <span class="permission-resource">{group.label}</span>
              {group.permissions.map(({ permission, action }) => (
                <label key={permission} class="check">
                  <input
                    type="checkbox"
                    aria-label={permissionLabel(permission)}
                    checked={chosen.includes(permission)}
                    onChange={(event) => toggle(permission, event.currentTarget.checked)}
                  />
                  {action}
                </label>
              ))}
            </div>
          ))}
        </div>
      </fieldset>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          {role ? 'Save' : 'Create'}
        </button>
        <button type="button" class="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  )
}
