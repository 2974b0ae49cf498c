import type { Db } from '../../db/database.js'
import { nowIso } from '../../shared/clock.js'
import type { Actor } from '../actor.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import { ACCESS_KEYS } from './access-key.repo.js'

/** Where the request that first used a key came from, for its audit entry. */
export interface FirstUseContext {
  requestId?: string
  clientAddress?: string
}

/**
 * Issue 13: the first request an access key authenticates is logged as `access_keys.first_use`. Marking the key
 * (first_used_at) and logging it are one transaction, and the mark is set only where none is, so however many
 * requests or server processes race to be first, exactly one entry is written. Authentication calls this only
 * while it knows the key unused (its cached grant says so), so keys in use cost no write.
 */
export async function recordFirstUse(db: Db, actor: Actor, context: FirstUseContext): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const marked = await trx
      .updateTable('access_keys')
      .set({ first_used_at: nowIso() })
      .where('id', '=', actor.accessKeyId)
      .where('first_used_at', 'is', null)
      .returning(['id', 'user_id', 'access_key', 'created', 'first_used_at'])
      .executeTakeFirst()
    if (!marked) return
    const after = { id: marked.id, userId: marked.user_id, accessKey: marked.access_key, created: marked.created, firstUsed: marked.first_used_at }
    await recordAuditEntry(trx, { actor, ...context }, { action: 'access_keys.first_use', resourceType: ACCESS_KEYS, resourceId: marked.id, after })
  })
}
