import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { detailFor, problemOf, type Problem } from '../../api/problem'
import { Field } from '../../ui/field'
import { ErrorNotice } from '../../ui/notices'
import { SelectField } from '../../ui/select-field'
import { roleChoices } from '../lists'
import type { Role, User } from '../types'
import { giveOneTimePassword } from './one-time-password'

/**
 * "Invite person": a user of type HUMAN with a name, an email and a role, then a one-time password for
 * them (two calls: the user, then the password). Should the second fail, the person exists without a
 * password, and the page says so: "New one-time password" on their row gives one.
 */
export function InviteForm({
  roles,
  onInvited,
  onCancel,
}: {
  roles: Role[]
  onInvited: (user: User, password: string | undefined) => void
  onCancel: () => void
}) {
  const [name, setName] = useState('')
  const [email, setEmail] = useState('')
  const [roleId, setRoleId] = useState('')
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [halfDone, setHalfDone] = useState<User | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  async function invite(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    let user: User | undefined
    try {
      user = (await kassa.POST('/iam/v2/users', { body: { type: 'HUMAN', name: name.trim(), email: email.trim(), roleId } })).data
      const given = await giveOneTimePassword(user.id)
      onInvited(user, given.password)
    } catch (error) {
      setHalfDone(user)
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <form class="form-card" onSubmit={invite} aria-labelledby="invite-title">
      <h2 id="invite-title">Invite a person</h2>
      {problem && (
        <ErrorNotice
          problem={problem}
          title={halfDone ? `${halfDone.name} was added, but got no one-time password: use “New one-time password” on their row` : 'Nobody was invited'}
        />
      )}
      <div class="field-pair">
        <Field label="Name" error={detailFor(problem, 'name')?.error}>
          {(control) => <input {...control} required maxLength={100} autoComplete="off" value={name} onInput={(event) => setName(event.currentTarget.value)} />}
        </Field>
        <Field label="Email" hint="They sign in with it." error={detailFor(problem, 'email')?.error}>
          {(control) => <input {...control} type="email" required autoComplete="off" value={email} onInput={(event) => setEmail(event.currentTarget.value)} />}
        </Field>
      </div>
      <SelectField
        label="Role"
        error={detailFor(problem, 'roleId')?.error}
        required
        value={roleId}
        none="Choose a role"
        choices={roleChoices(roles)}
        onChange={setRoleId}
      />
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy || halfDone !== undefined}>
          Invite
        </button>
        <button type="button" class="button" onClick={onCancel}>
          {halfDone ? 'Close' : 'Cancel'}
        </button>
      </div>
    </form>
  )
}
