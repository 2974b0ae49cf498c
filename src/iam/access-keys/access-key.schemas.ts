import { Type, type Static } from 'typebox'
import { ListQueryProperties } from '../../http/pagination.js'
import { ResourceId, Timestamp } from '../../shared/common.schemas.js'

/** An active access key of a user, without its secret (only a digest of it is kept). */
export const AccessKey = Type.Object({
  id: ResourceId,
  userId: ResourceId,
  accessKey: Type.String({ description: 'The public half of the credentials: the HTTP Basic user name' }),
  created: Timestamp,
})
export type AccessKey = Static<typeof AccessKey>

/** A new access key with its secret, which is shown in this response only. */
export const NewAccessKey = Type.Object({
  ...AccessKey.properties,
  secret: Type.Optional(
    Type.String({
      description:
        'The HTTP Basic password, shown once. Absent when an Idempotency-Key replays the response: secrets are never stored in clear',
    }),
  ),
})
export type NewAccessKey = Static<typeof NewAccessKey>

export const AccessKeyListQuery = Type.Object(ListQueryProperties)
export type AccessKeyListQuery = Static<typeof AccessKeyListQuery>

export const AccessKeyParams = Type.Object({ id: ResourceId, keyId: ResourceId })
