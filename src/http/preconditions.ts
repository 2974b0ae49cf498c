import type { FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { ApiError } from './errors.js'

export const IfMatchHeaders = Type.Object({
  'if-match': Type.Optional(
    Type.String({ description: "The resource's etag, verbatim (e.g. version:3). Required: missing → 428, stale → 412." }),
  ),
})

/** If-Match where the reference makes it optional (a credit transfer batch's :approve and :reject, reference §3.3). */
export const OptionalIfMatchHeaders = Type.Object({
  'if-match': Type.Optional(Type.String({ description: "The resource's etag, verbatim (e.g. version:3). Optional: when sent, a stale one is a 412." })),
})

/** The If-Match value when one was sent (an empty one counts as none). */
export function optionalIfMatch(request: FastifyRequest): string | undefined {
  const value = request.headers['if-match']
  return typeof value === 'string' && value !== '' ? value : undefined
}

/** The If-Match value, which updates must carry (spec: Request headers). @throws ApiError precondition_required (428). */
export function requireIfMatch(request: FastifyRequest): string {
  const value = request.headers['if-match']
  if (typeof value !== 'string' || value === '') {
    throw new ApiError('precondition_required', 'The If-Match header is required: send the etag of the resource')
  }
  return value
}

/** @throws ApiError precondition_failed (412) when the etag is not the current one. Compared verbatim (spec). */
export function assertEtag(expected: string, current: string): void {
  if (expected !== current) {
    throw new ApiError('precondition_failed', `If-Match "${expected}" does not match the current etag "${current}"`)
  }
}

export function etagOf(version: number): string {
  return `version:${version}`
}
