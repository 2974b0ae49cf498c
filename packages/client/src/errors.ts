import type { Middleware } from 'openapi-fetch'
import type { components } from './generated/openapi.js'

/** One entry of an error's `details`: which field was at fault and why. */
export type ErrorDetail = NonNullable<components['schemas']['ErrorEnvelope']['details']>[number]

/**
 * Every answer outside 2xx, after the retries allowed, is thrown as a KassaApiError: a resolved call
 * always holds its data. The fields are the error envelope's (`status`, stable machine `code`, `message`,
 * `requestId`, `details`); the request id is what Kassa's logs are searched by.
 */
export class KassaApiError extends Error {
  override readonly name = 'KassaApiError'
  readonly status: number
  /** Stable machine-readable code from Kassa's catalogue (`not_found`, `precondition_failed`, …); `unexpected_response` when the body was not Kassa's envelope. */
  readonly code: string
  /** The `request-id` of the failed request. */
  readonly requestId: string | undefined
  /** Per-field reasons, on validation errors. */
  readonly details: ErrorDetail[]

  constructor(fields: { status: number; code: string; message: string; requestId?: string | undefined; details?: ErrorDetail[] | undefined }) {
    super(fields.message)
    this.status = fields.status
    this.code = fields.code
    this.requestId = fields.requestId
    this.details = fields.details ?? []
  }

  /** The error a non-2xx response stands for: its envelope, or (from something other than Kassa, such as a proxy) its status. */
  static async fromResponse(response: Response): Promise<KassaApiError> {
    const text = await response.text()
    const envelope = parseEnvelope(text)
    const requestId = response.headers.get('request-id') ?? undefined
    if (envelope) return new KassaApiError({ ...envelope, requestId: envelope.requestId || requestId })
    return new KassaApiError({ status: response.status, code: 'unexpected_response', message: `HTTP ${response.status} ${response.statusText}`.trim(), requestId })
  }
}

type Envelope = components['schemas']['ErrorEnvelope']

function parseEnvelope(text: string): Envelope | undefined {
  try {
    const body: unknown = JSON.parse(text)
    if (typeof body !== 'object' || body === null) return undefined
    const { status, code, message } = body as Partial<Envelope>
    return typeof status === 'number' && typeof code === 'string' && typeof message === 'string' ? (body as Envelope) : undefined
  } catch {
    return undefined
  }
}

/** openapi-fetch middleware: turns every non-2xx answer into a thrown KassaApiError. */
export const throwKassaApiErrors: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await KassaApiError.fromResponse(response)
    return undefined
  },
}
