import { useSession } from '../../session/session'
import { SettingsLayout } from '../settings-layout'
import { AuthenticatorApp } from './authenticator-app'
import { Sessions } from './sessions'

/** Your sign-in: the signed-in person's own sessions and authenticator app. */
export function SignInSettingsPage() {
  const { session } = useSession()
  return (
    <SettingsLayout title="Your sign-in">
      <p class="page-intro">
        Signed in as {session.user.name} ({session.user.email}).
      </p>
      <AuthenticatorApp />
      <Sessions />
    </SettingsLayout>
  )
}
