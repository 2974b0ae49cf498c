import { useEffect, useRef, useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import type { Session } from '../api/types'
import { Field } from '../ui/field'
import { ErrorNotice } from '../ui/notices'

/** The API's 401 detail that says the account has TOTP and the code is missing (sign-in.service.ts). */
const TOTP_REQUIRED = 'totp_required'

/**
 * Email and password, and the 6-digit code of an authenticator app when the server asks for it. A
 * refusal (wrong password, lockout) is shown as the API words it, with its request id.
 */
export function SignInPage({ notice, onSignedIn }: { notice?: string; onSignedIn: (session: Session, password: string) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [totp, setTotp] = useState<string | undefined>(undefined)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const codeInput = useRef<HTMLInputElement>(null)
  const askingForCode = totp !== undefined

  useEffect(() => {
    document.title = 'Sign in · Kassa'
  }, [])
  useEffect(() => {
    if (askingForCode) codeInput.current?.focus()
  }, [askingForCode])

  async function signIn(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      const { data } = await kassa.POST('/iam/v2/session', { body: { email, password, ...(totp ? { totp } : {}) } })
      onSignedIn(data, password)
    } catch (error) {
      const failure = problemOf(error)
      if (!askingForCode && failure.details.some((detail) => detail.code === TOTP_REQUIRED)) setTotp('')
      else setProblem(failure)
      setBusy(false)
    }
  }

  return (
    <main class="sign-in">
      <form class="card sign-in-card" onSubmit={signIn} aria-labelledby="sign-in-title">
        <p class="brand brand-large" aria-hidden="true">
          Kassa
        </p>
        <h1 id="sign-in-title">Sign in</h1>
        {notice && (
          <p class="notice info" role="status">
            {notice}
          </p>
        )}
        {problem && <ErrorNotice problem={problem} title="Sign-in failed" />}
        <Field label="Email">
          {(control) => (
            <input {...control} type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Password">
          {(control) => (
            <input
              {...control}
              type="password"
              name="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(e.currentTarget.value)}
            />
          )}
        </Field>
        {askingForCode && (
          <Field label="Authentication code" hint="This account uses an authenticator app: enter the 6-digit code it shows now.">
            {(control) => (
              <input
                {...control}
                ref={codeInput}
                type="text"
                name="totp"
                inputMode="numeric"
                autoComplete="one-time-code"
                pattern="[0-9]{6}"
                maxLength={6}
                required
                value={totp}
                onInput={(e) => setTotp(e.currentTarget.value.trim())}
              />
            )}
          </Field>
        )}
        <button type="submit" class="button primary wide" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  )
}
