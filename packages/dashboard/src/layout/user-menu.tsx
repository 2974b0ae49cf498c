import { useState } from 'preact/hooks'
import { problemOf, type Problem } from '../api/problem'
import { useSession } from '../session/session'
import { ErrorNotice } from '../ui/notices'

/** Who is signed in, with which role, and the way out. */
export function UserMenu() {
  const { session, signOut } = useSession()
  const [problem, setProblem] = useState<Problem | undefined>(undefined)

  async function leave() {
    try {
      await signOut()
    } catch (error) {
      setProblem(problemOf(error))
    }
  }

  return (
    <div class="user-menu">
      <p class="user">
        <span class="user-name">{session.user.name}</span>
        <span class="user-role">{session.role.name}</span>
      </p>
      <button type="button" class="button quiet" onClick={() => void leave()}>
        Sign out
      </button>
      {problem && <ErrorNotice problem={problem} title="Not signed out" />}
    </div>
  )
}
