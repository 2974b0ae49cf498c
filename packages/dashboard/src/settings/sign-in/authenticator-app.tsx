import { useState } from 'preact/hooks'
import { kassa } from '../../api/kassa'
import { detailFor, problemOf, type Problem } from '../../api/problem'
import { useSession } from '../../session/session'
import { Field } from '../../ui/field'
import { ErrorNotice } from '../../ui/notices'
import { SecretValue } from '../../ui/shown-once'

type Enrollment = { secret?: string; uri?: string }

function PasswordField({ value, onInput, problem }: { value: string; onInput: (value: string) => void; problem?: Problem }) {
  return (
    <Field label="Your password" hint="Asked again: this changes how you sign in." error={detailFor(problem, 'password')?.error}>
      {(control) => <input {...control} type="password" autoComplete="current-password" required value={value} onInput={(event) => onInput(event.currentTarget.value)} />}
    </Field>
  )
}

/**
 * An authenticator app (TOTP, RFC 6238) for the signed-in person: set up with the password, then the
 * secret — shown this once, as text and as the otpauth URI an app imports — and a first code to confirm
 * it; or turned off with the password, from a session signed in with a code. The API is the judge of
 * both; its refusal is shown.
 */
export function AuthenticatorApp() {
  const { session, refresh } = useSession()
  const [password, setPassword] = useState('')
  const [code, setCode] = useState('')
  const [enrollment, setEnrollment] = useState<Enrollment | undefined>(undefined)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  async function act(call: () => Promise<void>) {
    setBusy(true)
    setProblem(undefined)
    try {
      await call()
    } catch (error) {
      setProblem(problemOf(error))
    }
    setBusy(false)
  }

  const start = (event: Event) => {
    event.preventDefault()
    return act(async () => {
      setEnrollment((await kassa.POST('/iam/v2/session/totp:enroll', { body: { password } })).data)
      setPassword('')
    })
  }
  const confirm = (event: Event) => {
    event.preventDefault()
    return act(async () => {
      await kassa.POST('/iam/v2/session/totp:confirm', { body: { code: code.trim() } })
      setEnrollment(undefined)
      await refresh()
    })
  }
  const turnOff = (event: Event) => {
    event.preventDefault()
    return act(async () => {
      await kassa.POST('/iam/v2/session/totp:disable', { body: { password } })
      setPassword('')
      await refresh()
    })
  }

  return (
    <section class="section" aria-labelledby="totp-title">
      <h2 id="totp-title">Authenticator app</h2>
      {session.totpEnabled ? (
        <form class="form-card" onSubmit={turnOff} aria-label="Turn off the authenticator app">
          <p class="notice success">Set up: signing in asks for the 6-digit code of your authenticator app.</p>
          {problem && <ErrorNotice problem={problem} title="Still on" />}
          {!session.secondFactor && <p class="field-hint">To turn it off, sign in with a code first (this session was signed in without one).</p>}
          <PasswordField value={password} onInput={setPassword} problem={problem} />
          <button type="submit" class="button danger" disabled={busy}>
            Turn off
          </button>
        </form>
      ) : enrollment ? (
        <form class="form-card" onSubmit={confirm} aria-label="Confirm the authenticator app">
          <p>Add this account to your authenticator app with the secret (or import the otpauth URI), then type the code it shows.</p>
          <p class="field-hint">Shown this once: if you leave now, start again.</p>
          {enrollment.secret && <SecretValue label="Secret" value={enrollment.secret} />}
          {enrollment.uri && <SecretValue label="otpauth URI" value={enrollment.uri} />}
          {problem && <ErrorNotice problem={problem} title="Not turned on" />}
          <Field label="Authentication code" hint="The 6 digits the app shows now." error={detailFor(problem, 'code')?.error}>
            {(control) => (
              <input {...control} inputMode="numeric" autoComplete="one-time-code" pattern="[0-9]{6}" maxLength={6} required value={code} onInput={(event) => setCode(event.currentTarget.value)} />
            )}
          </Field>
          <div class="form-actions">
            <button type="submit" class="button primary" disabled={busy}>
              Turn on
            </button>
            <button type="button" class="button" onClick={() => setEnrollment(undefined)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <form class="form-card" onSubmit={start} aria-label="Set up an authenticator app">
          <p>Not set up: you sign in with your password alone. With an app, signing in also asks for the code it shows.</p>
          {problem && <ErrorNotice problem={problem} title="Not started" />}
          <PasswordField value={password} onInput={setPassword} problem={problem} />
          <button type="submit" class="button primary" disabled={busy}>
            Set up authenticator app
          </button>
        </form>
      )}
    </section>
  )
}
