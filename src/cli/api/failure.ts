import { KassaApiError, type ErrorDetail } from '@kassa/client'

/** The reference a support request needs: status, code and request id, in the order the envelope has them. */
export function errorReference(error: { status?: number | undefined; code: string; requestId?: string | undefined }): string {
  return [error.status, error.code, error.requestId && `request id ${error.requestId}`].filter(Boolean).join(', ')
}

/** The per-field reasons the message does not already name (invalidField's message names its one field). */
export function unnamedDetails(error: { message: string; details?: ErrorDetail[] | undefined }): string[] {
  return (error.details ?? []).filter((detail) => !error.message.includes(detail.field)).map((detail) => `${detail.field}: ${detail.error}`)
}

/**
 * An API error as one line (`<message> (status, code, request id)`) and its field reasons beneath;
 * main.ts prints it after `kassa: ` and exits 1.
 */
function describeApiError(error: KassaApiError): string {
  return [`${error.message} (${errorReference(error)})`, ...unnamedDetails(error).map((line) => `  ${line}`)].join('\n')
}

/** Fetch reports a refused, reset or unresolvable connection as a TypeError whose cause has the system's code (Fetch standard: "network error"). */
function networkCause(error: unknown): string | undefined {
  if (!(error instanceof TypeError)) return undefined
  const cause = error.cause as { code?: unknown; message?: unknown } | undefined
  if (typeof cause?.code === 'string') return cause.code
  return typeof cause?.message === 'string' ? cause.message : error.message
}

/**
 * What a failed command tells its user: an API error with its reference, an unreachable server with its
 * address (after the SDK's retries); anything else as it came.
 */
export function describeFailure(error: unknown, url: string): unknown {
  if (error instanceof KassaApiError) return new Error(describeApiError(error))
  const cause = networkCause(error)
  if (cause !== undefined) return new Error(`The server is not reachable at ${url} (${cause})`)
  return error
}
