import type { Answer, SentRequest } from './http-client.js'

/**
 * What every answer must be, whatever was asked (issue 9): an answer at all, a request-id, no 5xx,
 * every 4xx in the one error envelope (spec: Errors; reference §6) and of bounded size. Each rule
 * returns the problems it sees as short sentences; an empty list means the answer is fine.
 */

/** Error bodies stay under this: a validation error lists a bounded number of details (issue 9: a 92 MB one). */
export const MAX_ERROR_BYTES = 64 * 1024

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
/** The envelope's fields; `detailsOmitted` counts the details left out of a long list (issue 9, README: Limits). */
const ENVELOPE_KEYS = new Set(['status', 'code', 'message', 'requestId', 'details', 'detailsOmitted'])
/** The OAuth2 token endpoint's errors also carry RFC 6749 §5.2's fields, `error` being the envelope's `code` (issue 13). */
const OAUTH2_KEYS = new Set([...ENVELOPE_KEYS, 'error', 'error_description'])

/** Signs of internals in a body: a stack trace, a source path, the first line of /etc/passwd. */
const LEAKS = [/\n\s+at .+:\d+:\d+/, /node_modules\//, /\/src\/.+\.ts\b/, /root:x:0:0:/, /SQLITE_|syntax error at or near/]

export function envelopeProblems(answer: Answer, method = 'GET', oauth2 = false): string[] {
  // A HEAD answer has the headers of the GET answer and no body (RFC 9110 §9.3.2).
  if (method === 'HEAD') return /^application\/json/.test(answer.headers['content-type'] ?? '') ? [] : [`content-type is ${answer.headers['content-type']}, not application/json`]
  let body: unknown
  try {
    body = JSON.parse(answer.body)
  } catch {
    return [`the ${answer.status} body is not JSON: ${answer.body.slice(0, 120)}`]
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return [`the ${answer.status} body is not the error envelope`]
  const envelope = body as Record<string, unknown>
  const problems: string[] = []
  if (!/^application\/json/.test(answer.headers['content-type'] ?? '')) problems.push(`content-type is ${answer.headers['content-type']}, not application/json`)
  if (envelope.status !== answer.status) problems.push(`envelope status ${String(envelope.status)} is not the HTTP status ${answer.status}`)
  if (typeof envelope.code !== 'string' || envelope.code === '') problems.push('envelope has no code')
  if (typeof envelope.message !== 'string' || envelope.message === '') problems.push('envelope has no message')
  // A replay (Idempotency-Key) is the first answer's body verbatim (spec: Idempotency rules), so its requestId
  // names the first request; the replay's own request-id header is new.
  const replayed = answer.headers['idempotent-replayed'] === 'true'
  if (replayed ? !UUID.test(String(envelope.requestId)) : envelope.requestId !== answer.headers['request-id']) {
    problems.push(`envelope requestId ${String(envelope.requestId)} is not the request-id header`)
  }
  const unknown = Object.keys(envelope).filter((key) => !(oauth2 ? OAUTH2_KEYS : ENVELOPE_KEYS).has(key))
  if (unknown.length > 0) problems.push(`envelope has fields beyond the spec's: ${unknown.join(', ')}`)
  if (oauth2 && envelope.error !== undefined && (envelope.error !== envelope.code || envelope.error_description === undefined)) {
    problems.push(`the RFC 6749 fields (error ${String(envelope.error)}) do not restate code ${String(envelope.code)}`)
  }
  if (envelope.details !== undefined) {
    const details = envelope.details
    const wellFormed =
      Array.isArray(details) &&
      details.every((detail: unknown) => {
        const { code, field, error } = (detail ?? {}) as Record<string, unknown>
        return typeof code === 'string' && typeof field === 'string' && typeof error === 'string'
      })
    if (!wellFormed) problems.push('envelope details are not a list of {code, field, error}')
  }
  const omitted = envelope.detailsOmitted
  if (omitted !== undefined && !(Number.isInteger(omitted) && (omitted as number) > 0 && Array.isArray(envelope.details))) {
    problems.push(`envelope detailsOmitted is ${JSON.stringify(omitted)}, not a count beside details`)
  }
  return problems
}

export interface CheckOptions {
  /** A status the request itself asked for (`POST /v1/idempotency-test?status=`): exempt from the 5xx and envelope rules. */
  requestedStatus?: number
  /** The server is closing: a 503 (in the envelope) is the expected answer (README: Limits). */
  shuttingDown?: boolean
  /** The OAuth2 token endpoint: its errors may carry RFC 6749 §5.2's fields beside the envelope's. */
  oauth2?: boolean
}

export function answerProblems(answer: Answer, options: CheckOptions = {}, method = 'GET'): string[] {
  if (answer.status === 0) return [`no answer: ${answer.failure}`]
  const problems: string[] = []
  const requestId = answer.headers['request-id']
  if (requestId === undefined || !UUID.test(requestId)) problems.push(`request-id header is ${requestId === undefined ? 'missing' : `"${requestId}"`}`)
  const asked = answer.status === options.requestedStatus
  if (answer.status >= 500 && !asked && !(options.shuttingDown && answer.status === 503)) problems.push(`a ${answer.status}`)
  if (answer.status >= 400 && !asked) {
    if (answer.bytes > MAX_ERROR_BYTES) problems.push(`an error body of ${answer.bytes} bytes (over ${MAX_ERROR_BYTES})`)
    problems.push(...envelopeProblems(answer, method, options.oauth2))
  }
  for (const leak of LEAKS) if (leak.test(answer.body)) problems.push(`the body shows internals (${leak.source})`)
  return problems
}

function shortened(text: string, length = 300): string {
  return text.length > length ? `${text.slice(0, length)}… (${text.length} chars)` : text
}

/** The exchange as a failure message: enough to replay it by hand. */
export function describeExchange(request: SentRequest, answer: Answer, problems: string[]): string {
  const headers = Object.entries(request.headers).map(([name, value]) => `${name}: ${shortened(value, 120)}`)
  const body = request.body ? shortened(request.body.toString('utf8')) : '(none)'
  const answerHeaders = ['content-type', 'request-id', 'content-length'].map((name) => `${name}: ${answer.headers[name] ?? '-'}`)
  return [
    `Problems: ${problems.join('; ')}`,
    `Request: ${request.method} ${shortened(request.path, 200)}`,
    ...headers.map((line) => `  ${line}`),
    `  body: ${body}`,
    `Answer: ${answer.status || answer.failure} (${answer.bytes} bytes) ${answerHeaders.join(', ')}`,
    `  ${shortened(answer.body)}`,
  ].join('\n')
}
