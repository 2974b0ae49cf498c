import { patchResource } from '@kassa/client'
import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { useSession } from '../../session/session'
import { ConfirmDialog } from '../../ui/confirm-dialog'
import { SelectField } from '../../ui/select-field'
import { roleChoices } from '../lists'
import type { Role, User } from '../types'
import { giveOneTimePassword } from './one-time-password'

/**
 * Deactivate and Reactivate, each undoing the other (POST /iam/v2/users/{id}:deactivate, :reactivate):
 * what each does, in words, for a person (who signs in) or an integration (which has only keys).
 */
const STATUS_CHANGES = {
  deactivate: {
    label: 'Deactivate',
    tone: 'danger',
    path: '/iam/v2/users/{id}:deactivate',
    explanation: (user: User) =>
      `${user.type === 'HUMAN' ? `${user.name} can no longer sign in: their sessions end and their access keys stop working, at once.` : `${user.name}’s access keys stop working at once.`} ` +
      'The keys are kept, so Reactivate undoes this. Kassa refuses to deactivate the organization’s last active Owner.',
  },
  reactivate: {
    label: 'Reactivate',
    tone: 'primary',
    path: '/iam/v2/users/{id}:reactivate',
    explanation: (user: User) =>
      user.type === 'HUMAN'
        ? `${user.name} can sign in again and their access keys work again. Sessions that ended stay ended.`
        : `${user.name}’s access keys work again.`,
  },
} as const

type Acting = 'role' | 'password' | 'delete' | keyof typeof STATUS_CHANGES | undefined

/**
 * What can be done to a user from their row, each behind a dialog: change the role (a JSON Patch with
 * the etag), give a person a new one-time password (their password and sessions end), deactivate or
 * reactivate (for those whose role holds users:update), delete (the API's way to take access away for
 * good: keys revoked, sessions ended; refused while an approval chain names them).
 */
export function UserActions({
  user,
  roles,
  onChanged,
  onPassword,
}: {
  user: User
  roles: Role[]
  onChanged: () => void
  onPassword: (user: User, password: string | undefined) => void
}) {
  const { session } = useSession()
  const [acting, setActing] = useState<Acting>(undefined)
  const [roleId, setRoleId] = useState(user.roleId)
  const close = () => setActing(undefined)
  const statusChange = user.status === 'ACTIVE' ? 'deactivate' : 'reactivate'
  const { label, tone, path, explanation } = STATUS_CHANGES[statusChange]

  return (
    <div class="button-row">
      <button type="button" class="button" aria-haspopup="dialog" aria-label={`Change role of ${user.name}`} onClick={() => setActing('role')}>
        Change role
      </button>
      {user.type === 'HUMAN' && (
        <button type="button" class="button" aria-haspopup="dialog" aria-label={`New one-time password for ${user.name}`} onClick={() => setActing('password')}>
          New one-time password
        </button>
      )}
      {session.permissions.includes('users:update') && (
        <button type="button" class="button" aria-haspopup="dialog" aria-label={`${label} ${user.name}`} onClick={() => setActing(statusChange)}>
          {label}
        </button>
      )}
      <button type="button" class="button" aria-haspopup="dialog" aria-label={`Delete ${user.name}`} onClick={() => setActing('delete')}>
        Delete
      </button>
      {acting === 'role' && (
        <ConfirmDialog
          title={`Change role of ${user.name}`}
          confirm="Save"
          tone="primary"
          onClose={close}
          onReload={() => {
            close()
            onChanged()
          }}
          onConfirm={async () => {
            await patchResource(kassa, '/iam/v2/users/{id}', { params: { path: { id: user.id } }, etag: user.etag, operations: [{ op: 'replace', path: '/roleId', value: roleId }] })
            onChanged()
          }}
        >
          <p>The new role’s permissions apply from their next request, in every session and to every access key of theirs.</p>
          <SelectField label="Role" value={roleId} choices={roleChoices(roles)} onChange={setRoleId} />
        </ConfirmDialog>
      )}
      {acting === 'password' && (
        <ConfirmDialog
          title={`New one-time password for ${user.name}`}
          confirm="Give new password"
          onClose={close}
          onConfirm={async () => onPassword(user, (await giveOneTimePassword(user.id)).password)}
        >
          <p>
            {user.name}’s current password stops working and their sessions end. They sign in with the one-time password and then choose their
            own. Their authenticator app, if any, stays as it is.
          </p>
        </ConfirmDialog>
      )}
      {acting === statusChange && (
        <ConfirmDialog
          title={`${label} ${user.name}`}
          confirm={label}
          tone={tone}
          onClose={close}
          onConfirm={async () => {
            await kassa.POST(path, { params: { path: { id: user.id } } })
            onChanged()
          }}
        >
          <p>{explanation(user)}</p>
        </ConfirmDialog>
      )}
      {acting === 'delete' && (
        <ConfirmDialog
          title={`Delete ${user.name}`}
          confirm="Delete"
          onClose={close}
          onReload={() => {
            close()
            onChanged()
          }}
          onConfirm={async () => {
            await kassa.DELETE('/iam/v2/users/{id}', { params: { path: { id: user.id }, header: { 'if-match': user.etag } } })
            onChanged()
          }}
        >
          <p>
            {user.name} can no longer sign in, and their access keys stop working at once. Payments and events keep naming them. While an approval
            chain names them as an approver, Kassa refuses: change the chain first.
          </p>
        </ConfirmDialog>
      )}
    </div>
  )
}
