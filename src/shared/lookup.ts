import { ApiError } from '../http/errors.js'
import type { ResourceRef } from '../http/resource-ref.js'

function describeRef(ref: ResourceRef): string {
  return 'id' in ref ? ref.id : `external:${ref.externalId}`
}

/**
 * A row looked up by id or externalId must exist in the caller's organization (else 404: another
 * organization's resource is not found, not forbidden) and must not be deleted (410 Gone).
 */
export function requireLive<Row extends object>(
  row: Row | undefined,
  resource: string,
  ref: ResourceRef,
): Row {
  if (!row) throw new ApiError('not_found', `No ${resource} ${describeRef(ref)}`)
  if ('deleted_at' in row && row.deleted_at) throw new ApiError('gone', `The ${resource} ${describeRef(ref)} was deleted`)
  return row
}
