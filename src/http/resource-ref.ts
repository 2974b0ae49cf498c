import { isUuid } from '../shared/ids.js'
import { invalidField } from './errors.js'

/** The `{id}` path segment: a resource id, or `external:{externalId}` (spec: External-id access). */
export type ResourceRef = { id: string } | { externalId: string }

const EXTERNAL_REF = /^external:([a-zA-Z0-9._\-+=]{1,64})$/

/** @throws ApiError invalid_request (400) when the segment is neither. */
export function parseResourceRef(segment: string): ResourceRef {
  const external = EXTERNAL_REF.exec(segment)
  if (external) return { externalId: external[1]! }
  if (isUuid(segment)) return { id: segment.toLowerCase() }
  throw invalidField('id', 'must be a UUID or external:{externalId} with 1 to 64 of letters, digits and . _ - + =')
}
