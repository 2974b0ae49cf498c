import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../../http/pagination.js'
import { ResourceId, Timestamp } from '../../shared/common.schemas.js'
import { User } from '../users/user.schemas.js'

const Password = Type.String({ minLength: 1, maxLength: 1024 })
export const TotpCode = Type.String({ pattern: '^[0-9]{6}$', description: 'The 6-digit code of the authenticator app (RFC 6238: SHA-1, 30 seconds)' })

export const SignIn = Type.Object(
  {
    organizationId: Type.Optional(
      Type.String({ format: 'uuid', description: 'Needed only when the email belongs to people of several organizations' }),
    ),
    email: Type.String({ format: 'email', maxLength: 254 }),
    password: Password,
    totp: Type.Optional(TotpCode),
  },
  { additionalProperties: false, examples: [{ email: 'ada@example.com', password: 'violet kettle drums at noon' }] },
)
export type SignIn = Static<typeof SignIn>

/** When a session began and was last used, and when it ends: at the latest, or after idling (the session and its summary alike). */
const SessionTimes = { created: Timestamp, lastSeen: Timestamp, expires: Timestamp, idleExpires: Timestamp }

/** The signed-in person's session: who they are, what they may do, and the CSRF token their writes carry. */
export const Session = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  user: User,
  role: Type.Object({ id: ResourceId, name: Type.String(), owner: Type.Boolean({ description: "Holds the organization Owner's rights" }) }),
  permissions: Type.Array(Type.String(), { description: "The role's permissions (resource:action): what this session may do" }),
  csrfToken: Type.String({
    description: 'Send as the X-CSRF-Token header on every POST, PATCH, PUT and DELETE made with the session cookie',
  }),
  secondFactor: Type.Boolean({ description: 'Signed in with a TOTP code (or confirmed one in this session)' }),
  totpEnabled: Type.Boolean({ description: 'The user has confirmed a TOTP authenticator: sign-in asks for its code' }),
  passwordChangeRequired: Type.Boolean({
    description: 'Signed in with a one-time password: until POST /iam/v2/session/password:change, nothing else is allowed',
  }),
  approvalsRequireSecondFactor: Type.Boolean({ description: 'The organization lets only sessions with secondFactor approve payments' }),
  ...SessionTimes,
})
export type Session = Static<typeof Session>

/** A session as its user's list shows it; never its token. */
export const SessionSummary = Type.Object({
  id: ResourceId,
  userId: ResourceId,
  secondFactor: Type.Boolean(),
  userAgent: Type.Optional(Type.String()),
  address: Type.String({ description: 'The address it signed in from' }),
  ...SessionTimes,
})
export type SessionSummary = Static<typeof SessionSummary>

export const SessionListQuery = Type.Object(ListQueryProperties)
export type SessionListQuery = Static<typeof SessionListQuery>
export const SessionParams = Type.Object({ id: ResourceId, sessionId: ResourceId })

export const ChangePassword = Type.Object(
  { currentPassword: Password, newPassword: Password },
  { additionalProperties: false, examples: [{ currentPassword: 'violet kettle drums at noon', newPassword: 'seven quiet herons by the canal' }] },
)
export type ChangePassword = Static<typeof ChangePassword>
