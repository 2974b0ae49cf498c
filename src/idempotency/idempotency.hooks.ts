import { hash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify'
import stringify from 'safe-stable-stringify'
import type { Database } from '../db/database.js'
import { ApiError, invalidField } from '../http/errors.js'
import { REQUEST_TIMEOUT_MS } from '../http/request-timeouts.js'
import { answerOfKey, ClaimedKey, keyInUse, keyScope, lookUpKey, purgeExpiredKeys, TransactionalKey, type HeldKey, type Lookup } from './idempotency-key.js'
import type { KeyScope } from './idempotency.repo.js'

export const IDEMPOTENCY_HEADER = 'idempotency-key'
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const PURGE_INTERVAL_MS = 60 * 60 * 1000

export interface IdempotencyOptions {
  /** How long a claimed key (a route with `config.idempotency: 'claim'`) stays locked by a request whose process may have died. */
  leaseMilliseconds: number
}


/** The request as far as replay is concerned: query and body. Method and path are part of the key's scope. */
function fingerprintOf(url: string, body: unknown): string {
  const query = url.includes('?') ? url.slice(url.indexOf('?')) : ''
  // One-shot hash: no Hash object per request (issue 14).
  return hash('sha256', `${query}\n${stringify(body ?? null)}`, 'hex')
}

/**
 * An expired key is deleted when it is used again; all others are purged at start and hourly, so
 * the table holds about a day of keys instead of growing forever. Several processes may purge at once.
 */
function purgeExpiredKeysPeriodically(app: FastifyInstance, database: Database): void {
  const purge = () =>
    purgeExpiredKeys(database.db).catch((error: unknown) => app.log.warn({ err: error }, 'could not purge expired idempotency keys'))
  let timer: NodeJS.Timeout | undefined
  app.addHook('onReady', async () => {
    await purge()
    timer = setInterval(purge, PURGE_INTERVAL_MS).unref()
  })
  app.addHook('onClose', async () => clearInterval(timer))
}

/** Route-level hooks as Fastify takes them: none, one, or a list. */
function withHook<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook]
}

/**
 * Idempotency-Key on POST and PATCH (spec: Idempotency rules 1–5); ignored on other methods, whose
 * routes do not get the hooks at all, so reads pay nothing for them.
 * Runs after authentication (keys are scoped to the organization) and validation.
 */
export function registerIdempotency(app: FastifyInstance, database: Database, options: IdempotencyOptions): void {
  purgeExpiredKeysPeriodically(app, database)
  // The keys this process's requests hold: a second request with one gets 425 (or 422) without touching the database.
  // Each is freed when its answer is sent; one older than the longest a request may last (a request whose answer
  // was never sent, however that came about) no longer holds its key.
  const inFlight = new Map<string, { fingerprint: string; since: number }>()

  /** The held key, or the replay or error its lookup found. */
  async function hold(request: FastifyRequest, scope: KeyScope, fingerprint: string): Promise<HeldKey | Exclude<Lookup, { outcome: 'absent' }>> {
    const { idempotency } = request.routeOptions.config
    if (idempotency === 'claim') return ClaimedKey.claim(database.db, scope, fingerprint, options.leaseMilliseconds)
    // Looked up in the work's transaction, which answers a key already answered (TransactionalKey.enter).
    if (idempotency === 'transaction') return new TransactionalKey(scope, fingerprint, database.dialect)
    const found = await lookUpKey(database.db, scope, fingerprint)
    return found.outcome === 'absent' ? new TransactionalKey(scope, fingerprint, database.dialect) : found
  }

  const claimIdempotencyKey: preHandlerAsyncHookHandler = async (request) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return
    const key = request.headers[IDEMPOTENCY_HEADER]
    if (key === undefined) return
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw invalidField('Idempotency-Key', 'must be 1 to 255 visible ASCII characters')
    }
    const scope = keyScope(request.actor!.organizationId, request.method, request.url.split('?', 1)[0]!, key)
    const fingerprint = fingerprintOf(request.url, request.body)
    const { name } = scope
    const running = inFlight.get(name)
    if (running && Date.now() - running.since < REQUEST_TIMEOUT_MS) throw running.fingerprint === fingerprint ? keyInUse() : new ApiError('idempotency_key_reused')
    // Taken before the first await, so a duplicate arriving meanwhile finds it.
    inFlight.set(name, { fingerprint, since: Date.now() })
    let held: Awaited<ReturnType<typeof hold>>
    try {
      held = await hold(request, scope, fingerprint)
    } catch (error) {
      inFlight.delete(name)
      throw error
    }
    if ('enter' in held) {
      request.idempotencyKey = held
      return
    }
    inFlight.delete(name)
    throw answerOfKey(held)
  }

  // Answers not already stored inside the work's transaction (errors, commands without writes) are stored here.
  const storeIdempotentResponse: onSendAsyncHookHandler = async (request, reply, payload) => {
    const held = request.idempotencyKey
    if (!held) return payload
    request.idempotencyKey = undefined
    try {
      await held.settle(database, reply.statusCode, typeof payload === 'string' ? payload : '')
    } catch (error) {
      request.log.error({ err: error }, 'could not record the idempotent response; a retry will run again')
    } finally {
      inFlight.delete(held.scope.name)
    }
    return payload
  }

  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    if (!methods.includes('POST') && !methods.includes('PATCH')) return
    route.preHandler = withHook(route.preHandler, claimIdempotencyKey)
    route.onSend = withHook(route.onSend, storeIdempotentResponse)
  })
}
