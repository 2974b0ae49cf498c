import { KassaApiError } from '@kassa/client'
import { createContext, type ComponentChildren } from 'preact'
import { useContext, useEffect, useState } from 'preact/hooks'
import { kassa, setCsrfToken, whenSessionEnds } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import type { Session } from '../api/types'

/** Where the person stands: being checked (page load), signed out (with why, when we know), or signed in. */
export type SessionState =
  | { status: 'checking' }
  | { status: 'unreachable'; problem: Problem }
  | { status: 'signed-out'; notice?: string }
  | { status: 'signed-in'; session: Session; oneTimePassword?: string }

export interface SignedIn {
  session: Session
  /** Reads the session again (after a password change, a TOTP enrollment). */
  refresh: () => Promise<void>
  signOut: () => Promise<void>
}

const SessionContext = createContext<SignedIn | undefined>(undefined)

/** The signed-in person's session; only pages behind the sign-in (inside SessionGate) call this. */
export function useSession(): SignedIn {
  const signedIn = useContext(SessionContext)
  if (!signedIn) throw new Error('useSession outside a signed-in page')
  return signedIn
}

/** The session's state and its changes; the one place that hands the CSRF token to the client. */
export function useSessionState() {
  const [state, setState] = useState<SessionState>({ status: 'checking' })

  function enter(session: Session, oneTimePassword?: string) {
    setCsrfToken(session.csrfToken)
    setState({ status: 'signed-in', session, ...(oneTimePassword && session.passwordChangeRequired ? { oneTimePassword } : {}) })
  }

  function leave(notice?: string) {
    setCsrfToken(undefined)
    setState({ status: 'signed-out', ...(notice ? { notice } : {}) })
  }

  async function check() {
    try {
      enter((await kassa.GET('/iam/v2/session')).data)
    } catch (error) {
      if (error instanceof KassaApiError && error.status === 401) leave()
      else setState({ status: 'unreachable', problem: problemOf(error) })
    }
  }

  useEffect(() => {
    whenSessionEnds(() => leave('Your session has ended (signed out elsewhere, expired or revoked). Sign in again.'))
    void check()
  }, [])

  return { state, enter, leave, check }
}

export function SessionProvider({ value, children }: { value: SignedIn; children: ComponentChildren }) {
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>
}
