import type { Database, Executor } from '../../db/database.js'
import type { AccessKeysTable } from '../../db/schema.js'
import { recordEvent } from '../../events/index.js'
import { ApiError } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { newId } from '../../shared/ids.js'
import type { Actor } from '../actor.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import { forgetCachedGrants } from '../authenticate.js'
import { assertMayGrant, assertMayRevokeOwnerRights, assertOwnerRemains, lockOwnership, rightsOf } from '../privileges.js'
import { hashSecret, newAccessKey, newSecret } from '../secrets.js'
import { toUser, userRepo } from '../users/user.repo.js'
import { loadUser, roleOf, USERS } from '../users/user.service.js'
import { ACCESS_KEYS, accessKeyRepo, toAccessKey } from './access-key.repo.js'
import type { AccessKey, AccessKeyListQuery, NewAccessKey } from './access-key.schemas.js'

/** Enough for rotation with overlap; more usually means keys are shared instead of given per integration. */
export const MAX_ACTIVE_KEYS_PER_USER = 10

/**
 * A user's keys belong to the user: creating or revoking one is a new version of the user and an
 * event in its history (ACCESS_KEY_CREATED, ACCESS_KEY_REVOKED). Bumping the user row also makes
 * concurrent changes to one user's keys run one after the other.
 */
async function recordKeyEvent(trx: Executor, ctx: CommandContext, userId: string, name: string, key: AccessKeysTable): Promise<void> {
  const user = await userRepo.touch(trx, userId, nowIso())
  if (!user) throw new ApiError('gone', `The user ${userId} was deleted`)
  const verb = name === 'ACCESS_KEY_CREATED' ? 'created' : 'revoked'
  await recordEvent(trx, {
    organizationId: ctx.actor.organizationId,
    entityType: USERS,
    entityId: userId,
    type: 'UPDATED',
    name,
    originator: ctx.actor.userId,
    message: `Access key ${key.access_key} ${verb}`,
    entity: toUser(user),
  })
}

export function createAccessKeyService(database: Database) {
  return {
    /**
     * A new access key for a user, with its secret; only the secret's digest is stored.
     * @throws ApiError not_found (404), gone (410: deleted user), forbidden (403: the key would act with
     * rights the actor lacks), conflict (409: too many active keys).
     */
    async create(ctx: CommandContext, userId: string): Promise<NewAccessKey> {
      const { organizationId } = ctx.actor
      const secret = newSecret()
      // The transaction stores the response for Idempotency-Key replays: without the secret, which is
      // kept nowhere in clear. A replay therefore returns the key without it.
      const key = await ctx.transaction(async (trx): Promise<AccessKey> => {
        const user = await loadUser(trx, organizationId, userId)
        assertMayGrant(ctx.actor, rightsOf(await roleOf(trx, user)), 'create an access key for a user with')
        const row: AccessKeysTable = {
          id: newId(),
          organization_id: organizationId,
          user_id: userId,
          access_key: newAccessKey(),
          secret_hash: hashSecret(secret),
          created: nowIso(),
          revoked_at: null,
          first_used_at: null,
        }
        await recordKeyEvent(trx, ctx, userId, 'ACCESS_KEY_CREATED', row)
        if ((await accessKeyRepo.activeKeysOf(trx, userId)).length >= MAX_ACTIVE_KEYS_PER_USER) {
          throw new ApiError('conflict', `A user may have at most ${MAX_ACTIVE_KEYS_PER_USER} active access keys; revoke one first`)
        }
        await accessKeyRepo.insert(trx, row)
        await recordAuditEntry(trx, ctx, { action: 'access_keys.create', resourceType: ACCESS_KEYS, resourceId: row.id, after: toAccessKey(row) })
        return toAccessKey(row)
      })
      return { ...key, secret }
    },

    /** The user's active keys, oldest first, without secrets. @throws ApiError not_found (404), gone (410), invalid_token (400). */
    async list(actor: Actor, userId: string, query: AccessKeyListQuery): Promise<ListEnvelopeOf<AccessKey>> {
      await loadUser(database.db, actor.organizationId, userId)
      const page = pageRequest(query, `${USERS}/${userId}/access-keys`, {}, ['text'])
      const rows = await accessKeyRepo.listActive(database.db, userId, page)
      return pageOf(rows, page, (row) => [row.id], toAccessKey)
    },

    /**
     * Revokes a key: it stops working at once in this process, and within the grant cache's lifetime
     * (5 seconds by default) in other server processes.
     * @throws ApiError not_found (404), gone (410: key revoked or user deleted), forbidden (403: a
     * non-Owner revoking an Owner's key), conflict (409: the last key of the last Owner).
     */
    async revoke(ctx: CommandContext, userId: string, keyId: string): Promise<void> {
      const { organizationId } = ctx.actor
      let revoked = ''
      await ctx.transaction(async (trx) => {
        await lockOwnership(trx, organizationId)
        const user = await loadUser(trx, organizationId, userId)
        const key = await accessKeyRepo.find(trx, userId, keyId)
        if (!key) throw new ApiError('not_found', `No access key ${keyId} of user ${userId}`)
        assertMayRevokeOwnerRights(ctx.actor, await roleOf(trx, user), 'revoke the access keys of')
        await recordKeyEvent(trx, ctx, userId, 'ACCESS_KEY_REVOKED', key)
        if (!(await accessKeyRepo.revoke(trx, keyId, nowIso()))) throw new ApiError('gone', `The access key ${keyId} was revoked`)
        await recordAuditEntry(trx, ctx, { action: 'access_keys.revoke', resourceType: ACCESS_KEYS, resourceId: keyId, before: toAccessKey(key) })
        await assertOwnerRemains(trx, organizationId)
        revoked = key.access_key
      })
      forgetCachedGrants([revoked])
    },
  }
}
