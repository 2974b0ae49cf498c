import { useEffect, useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { detailFor, problemOf, type Problem } from '../api/problem'
import { Field } from '../ui/field'
import { ErrorNotice } from '../ui/notices'
import { useSession } from './session'

/**
 * After signing in with a one-time password (the sandbox Owner's first sign-in, a reset by an admin) the
 * API allows nothing but choosing a new password, so nothing else is shown. The one-time password typed
 * a moment ago is kept in memory for this form; after a page reload it is asked for again.
 */
export function ChangePasswordPage({ oneTimePassword }: { oneTimePassword?: string }) {
  const { refresh, signOut } = useSession()
  const [current, setCurrent] = useState(oneTimePassword ?? '')
  const [next, setNext] = useState('')
  const [repeat, setRepeat] = useState('')
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const mismatch = repeat !== '' && repeat !== next

  useEffect(() => {
    document.title = 'Choose a new password · Kassa'
  }, [])

  async function change(event: Event) {
    event.preventDefault()
    if (mismatch) return
    setBusy(true)
    setProblem(undefined)
    try {
      await kassa.POST('/iam/v2/session/password:change', { body: { currentPassword: current, newPassword: next } })
      await refresh()
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <form class="card sign-in-card" onSubmit={change} aria-labelledby="change-password-title">
        <h1 id="change-password-title">Choose a new password</h1>
        <p>You signed in with a one-time password. Choose a password of your own to continue.</p>
        {problem && <ErrorNotice problem={problem} title="The password was not changed" />}
        {oneTimePassword === undefined && (
          <Field label="Current password" error={detailFor(problem, 'currentPassword')?.error}>
            {(control) => (
              <input {...control} type="password" autoComplete="current-password" required value={current} onInput={(e) => setCurrent(e.currentTarget.value)} />
            )}
          </Field>
        )}
        <Field label="New password" hint="At least 12 characters, and not one of the most common passwords." error={detailFor(problem, 'newPassword')?.error}>
          {(control) => <input {...control} type="password" autoComplete="new-password" required value={next} onInput={(e) => setNext(e.currentTarget.value)} />}
        </Field>
        <Field label="Repeat new password" error={mismatch ? 'does not match the new password' : undefined}>
          {(control) => <input {...control} type="password" autoComplete="new-password" required value={repeat} onInput={(e) => setRepeat(e.currentTarget.value)} />}
        </Field>
        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy || mismatch}>
            Change password
          </button>
          <button type="button" class="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </form>
    </main>
  )
}
