import { ApiError } from '../http/errors.js'
import type { ResourceRef } from '../http/resource-ref.js'
import { requireLive } from './lookup.js'

/**
 * A conditional write (`WHERE version = expected`, or `deleted_at IS NULL`) matched no row: another
 * request changed or deleted the resource between our read and our write (PostgreSQL; SQLite
 * transactions never interleave).
 * Read it again in the same transaction — under READ COMMITTED that sees the other commit — so a
 * deletion answers 410 exactly as it would to a request that came after it, and any other change 412.
 * @throws ApiError gone (410), precondition_failed (412).
 */
export async function lostRace(reread: () => Promise<object | undefined>, resource: string, ref: ResourceRef): Promise<never> {
  requireLive(await reread(), resource, ref)
  throw new ApiError('precondition_failed', `The ${resource} changed while this request ran; fetch it again`)
}
