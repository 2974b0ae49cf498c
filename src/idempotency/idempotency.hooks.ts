import { createHash } from 'node:crypto'
import type { FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify'
import stringify from 'safe-stable-stringify'
import type { Database } from '../db/database.js'
import { ApiError, invalidField } from '../http/errors.js'
import { claimKey, purgeExpiredKeys } from './idempotency-key.js'

export const IDEMPOTENCY_HEADER = 'idempotency-key'
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/
const PURGE_INTERVAL_MS = 60 * 60 * 1000

export interface IdempotencyOptions {
  /** How long a request may hold a key before a retry may take it over (its process presumed dead). */
  leaseMilliseconds: number
}

/** The request as far as replay is concerned: query and body. Method and path are part of the key's scope. */
function fingerprintOf(url: string, body: unknown): string {
  const query = url.includes('?') ? url.slice(url.indexOf('?')) : ''
  return createHash('sha256').update(`${query}\n${stringify(body ?? null)}`).digest('hex')
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
  const claimIdempotencyKey: preHandlerAsyncHookHandler = async (request, reply) => {
    if (request.method !== 'POST' && request.method !== 'PATCH') return
    const key = request.headers[IDEMPOTENCY_HEADER]
    if (key === undefined) return
    if (typeof key !== 'string' || !KEY_PATTERN.test(key)) {
      throw invalidField('Idempotency-Key', 'must be 1 to 255 visible ASCII characters')
    }
    const scope = {
      organizationId: request.actor!.organizationId,
      method: request.method,
      path: request.url.split('?', 1)[0]!,
      key,
    }
    const claim = await claimKey(database.db, scope, fingerprintOf(request.url, request.body), options.leaseMilliseconds)
    switch (claim.outcome) {
      case 'claimed':
        request.idempotencyKey = claim.key
        return
      case 'replay':
        reply.header('idempotent-replayed', 'true').code(claim.status)
        if (claim.body !== '') reply.type('application/json; charset=utf-8')
        return reply.send(claim.body === '' ? undefined : claim.body)
      case 'in_progress':
        throw new ApiError('idempotency_key_in_use', undefined, undefined, { 'Retry-After': '1' })
      case 'mismatch':
        throw new ApiError('idempotency_key_reused')
    }
  }

  // Responses not already stored inside a transaction (errors, commands without writes) are stored here.
  const storeIdempotentResponse: onSendAsyncHookHandler = async (request, reply, payload) => {
    const held = request.idempotencyKey
    if (!held || held.completed) return payload
    request.idempotencyKey = undefined
    try {
      if (reply.statusCode >= 500) await held.release(database.db)
      else await held.complete(database.db, reply.statusCode, typeof payload === 'string' ? payload : '')
    } catch (error) {
      request.log.error({ err: error }, 'could not record the idempotent response; the key will be released when its lease lapses')
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
