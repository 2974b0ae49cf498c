import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { Database } from '../db/database.js'
import type { Actor } from '../iam/actor.js'
import type { Permission } from '../iam/permissions.js'
import type { HeldKey } from '../idempotency/idempotency-key.js'

/** The Fastify instance resource routes are registered on: TypeBox schemas type the handlers. */
export type ApiApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>

declare module 'fastify' {
  interface FastifyInstance {
    database: Database
  }
  interface FastifyRequest {
    /** Set by authentication on every API route. */
    actor?: Actor
    /** Set when the request holds an Idempotency-Key. */
    idempotencyKey?: HeldKey
  }
  interface FastifyContextConfig {
    /** The permission an API route requires; null for routes any valid key may call. Required on every API route. */
    permission?: Permission | null
    /**
     * 'claim' for a POST or PATCH whose work is not one transaction through its CommandContext (the test endpoint's
     * sleep): its Idempotency-Key is claimed by a row before the work, so other processes see it (idempotency-key.ts).
     * 'transaction' for one that does nothing but validate its body before its CommandContext's one transaction (a
     * payment's create): its key is looked up only there, with the work's reads — no read of its own before (issue 14).
     */
    idempotency?: 'claim' | 'transaction'
  }
}
