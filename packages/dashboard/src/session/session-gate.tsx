import type { ComponentChildren } from 'preact'
import { kassa } from '../api/kassa'
import { ErrorNotice, Loading } from '../ui/notices'
import { ChangePasswordPage } from './change-password-page'
import { SessionProvider, useSessionState } from './session'
import { SignInPage } from './sign-in-page'

/**
 * Nothing but the sign-in shows until the person has a session, and nothing but the password form
 * until a one-time password is replaced (the API allows nothing else then either). The page asked for
 * stays in the address bar through both and opens once they are done.
 */
export function SessionGate({ children }: { children: ComponentChildren }) {
  const { state, enter, leave, check } = useSessionState()

  if (state.status === 'checking') return <Loading what="Checking your session…" />
  if (state.status === 'unreachable') {
    return (
      <main class="centered">
        <ErrorNotice problem={state.problem} title="Kassa could not be reached">
          <button type="button" class="button" onClick={() => void check()}>
            Try again
          </button>
        </ErrorNotice>
      </main>
    )
  }
  if (state.status === 'signed-out') return <SignInPage notice={state.notice} onSignedIn={enter} />

  const signedIn = {
    session: state.session,
    refresh: check,
    async signOut() {
      await kassa.POST('/iam/v2/session:signOut')
      leave('You have signed out.')
    },
  }
  return (
    <SessionProvider value={signedIn}>
      {state.session.passwordChangeRequired ? <ChangePasswordPage oneTimePassword={state.oneTimePassword} /> : children}
    </SessionProvider>
  )
}
