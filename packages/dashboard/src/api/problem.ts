import { KassaApiError, type ErrorDetail } from '@kassa/client'

/** What went wrong, as a page shows it: the API's own message and the request id its logs are searched by. */
export interface Problem {
  message: string
  status?: number
  code?: string
  requestId?: string
  details: ErrorDetail[]
}

/** Any failure of a call as a Problem: the API's error envelope, or a network failure in plain words. */
export function problemOf(error: unknown): Problem {
  if (error instanceof KassaApiError) {
    return { message: error.message, status: error.status, code: error.code, requestId: error.requestId, details: error.details }
  }
  // A failed fetch is a TypeError (Fetch standard): the server could not be reached at all.
  if (error instanceof TypeError) return { message: 'Kassa could not be reached. Check your connection and try again.', details: [] }
  return { message: error instanceof Error ? error.message : String(error), details: [] }
}

/** The detail the API gave for `field`, if any (validation errors name their field). */
export function detailFor(problem: Problem | undefined, field: string): ErrorDetail | undefined {
  return problem?.details.find((detail) => detail.field === field || detail.field.endsWith(`.${field}`) || detail.field.endsWith(`/${field}`))
}
