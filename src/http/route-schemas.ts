import { Type } from 'typebox'
import { ERRORS } from './errors.js'

const ERROR_REF = { $ref: 'ErrorEnvelope#' }

/** Statuses every authenticated API route can answer with. */
const ALWAYS = [401, 429, 500, 503] as const

function describe(status: number): string {
  // The OAuth2 token endpoint's codes never answer any other route.
  const known = Object.values(ERRORS).filter((error) => error.status === status && !('oauth2' in error))
  return known.map((error) => error.message).join('; ') || 'Error'
}

/** Response schemas for the error statuses a route documents, all in the one error envelope. */
export function errorResponses(...statuses: number[]): Record<number, unknown> {
  const all = [...new Set([...statuses, ...ALWAYS])].sort((a, b) => a - b)
  return Object.fromEntries(all.map((status) => [status, { ...ERROR_REF, description: describe(status) }]))
}

export const NoContent = Type.Null({ description: 'No content' })
