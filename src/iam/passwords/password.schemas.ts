import { Type, type Static } from 'typebox'
import { Timestamp } from '../../shared/common.schemas.js'

/** A one-time password given to a person (an invitation, a reset), shown in this response only. */
export const OneTimePassword = Type.Object({
  password: Type.Optional(
    Type.String({
      description:
        'Shown once; the person signs in with it and must then choose their own. Absent when an Idempotency-Key replays the response: passwords are never stored in clear',
    }),
  ),
  created: Timestamp,
})
export type OneTimePassword = Static<typeof OneTimePassword>
