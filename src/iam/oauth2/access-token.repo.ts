import type { Executor } from '../../db/database.js'
import type { OAuth2AccessTokensTable } from '../../db/schema.js'
import { preparedQuery } from '../../db/prepared-query.js'

/** What a bearer token stands for: the access key it was issued to, until when. */
export interface IssuedToken {
  accessKey: string
  expiresAt: string
}

/**
 * Read on the read path, as a key's grant is (access-key.repo.ts): a token is looked up once per process
 * and then cached until it expires, so this runs about once per token and server process.
 */
const issuedTokenOf = preparedQuery((db, parameter: (name: 'tokenDigest') => string) =>
  db
    .selectFrom('oauth2_access_tokens as t')
    .innerJoin('access_keys as k', 'k.id', 't.access_key_id')
    .select(['k.access_key as accessKey', 't.expires_at as expiresAt'])
    .where('t.token_digest', '=', parameter('tokenDigest')),
)

export const accessTokenRepo = {
  async insert(trx: Executor, row: OAuth2AccessTokensTable): Promise<void> {
    await trx.insertInto('oauth2_access_tokens').values(row).execute()
  },

  /** The token with this digest, expired or not; whether its key still acts is the key's grant's business. */
  async find(db: Executor, tokenDigest: string): Promise<IssuedToken | undefined> {
    return (await issuedTokenOf(db, { tokenDigest }))[0]
  },

  /** Deletes the tokens that expired before `now`: nothing can use them any more. */
  async purgeExpired(trx: Executor, now: string): Promise<void> {
    await trx.deleteFrom('oauth2_access_tokens').where('expires_at', '<', now).execute()
  },
}
