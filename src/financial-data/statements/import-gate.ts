import type { FastifyRequest, onRequestHookHandler } from 'fastify'
import { ApiError } from '../../http/errors.js'

/**
 * One import at a time in this process — a statement, or a bank file uploaded on a connection (which may
 * be a camt statement too) — so that the memory budget of statement.limits.ts is the process's whatever
 * the number of clients. app.ts creates one and gives it to both routes. Another upload meanwhile is answered before a byte of
 * it is read: 425 when it repeats the Idempotency-Key of the import under way (spec: Idempotency
 * rules 5), else 503 with Retry-After.
 *
 * The payment worker's inbox pass holds it too (tryHolding), so a file dropped in an inboxDir is never imported
 * beside an upload.
 *
 * An import holds the gate from its request's arrival until both its response is done (or its
 * connection closed) and its handler has returned: a client that went away does not free the gate
 * while its import still runs.
 */

interface Lease {
  organizationId: string
  idempotencyKey: string | undefined
  holds: number
}

export function createImportGate() {
  let current: Lease | undefined
  const leases = new WeakMap<FastifyRequest, Lease>()

  function release(lease: Lease): void {
    lease.holds -= 1
    if (lease.holds === 0 && current === lease) current = undefined
  }

  /** The route's onRequest hook, after authentication. */
  const admit: onRequestHookHandler = (request, reply, done) => {
    const organizationId = request.actor!.organizationId
    const key = request.headers['idempotency-key']
    const idempotencyKey = typeof key === 'string' ? key : undefined
    if (current) {
      const sameKey = idempotencyKey !== undefined && current.idempotencyKey === idempotencyKey && current.organizationId === organizationId
      return done(
        sameKey
          ? new ApiError('idempotency_key_in_use', undefined, undefined, { 'Retry-After': '1' })
          : new ApiError('unavailable', 'Another statement or bank file is being imported; retry when it is done', undefined, { 'Retry-After': '5' }),
      )
    }
    const lease: Lease = { organizationId, idempotencyKey, holds: 1 }
    current = lease
    leases.set(request, lease)
    reply.raw.once('close', () => release(lease))
    done()
  }

  /** Runs the import's work holding the gate. @throws ApiError unavailable (503) when the client has already gone. */
  async function holding<T>(request: FastifyRequest, work: () => Promise<T>): Promise<T> {
    const lease = leases.get(request)!
    if (current !== lease) throw new ApiError('unavailable', 'The client closed the connection before the import began')
    lease.holds += 1
    try {
      return await work()
    } finally {
      release(lease)
    }
  }

  /**
   * Runs an import that no request made (the payment worker reading the connections' inboxDirs) holding the gate,
   * or skips it: undefined, without running `work`, while another import holds the gate — the worker tries again
   * on its next pass.
   */
  async function tryHolding<T>(work: () => Promise<T>): Promise<T | undefined> {
    if (current) return undefined
    const lease: Lease = { organizationId: '', idempotencyKey: undefined, holds: 1 }
    current = lease
    try {
      return await work()
    } finally {
      release(lease)
    }
  }

  return { admit, holding, tryHolding }
}

export type ImportGate = ReturnType<typeof createImportGate>
