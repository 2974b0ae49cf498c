import { Type, type Static } from 'typebox'
import { TotpCode } from '../sessions/session.schemas.js'

const Password = Type.String({ minLength: 1, maxLength: 1024, description: "The signed-in person's current password" })

export const EnrollTotp = Type.Object({ password: Password }, { additionalProperties: false, examples: [{ password: 'violet kettle drums at noon' }] })
export type EnrollTotp = Static<typeof EnrollTotp>

/** A new TOTP secret, shown in this response only. */
export const TotpEnrollment = Type.Object({
  secret: Type.Optional(Type.String({ description: 'Base32, for typing into an authenticator app. Absent when an Idempotency-Key replays the response' })),
  uri: Type.Optional(Type.String({ description: 'The otpauth:// URI to show as a QR code. Absent when an Idempotency-Key replays the response' })),
})
export type TotpEnrollment = Static<typeof TotpEnrollment>

export const ConfirmTotp = Type.Object({ code: TotpCode }, { additionalProperties: false, examples: [{ code: '287082' }] })
export type ConfirmTotp = Static<typeof ConfirmTotp>

export const DisableTotp = EnrollTotp
export type DisableTotp = EnrollTotp
