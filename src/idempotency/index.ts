export { registerIdempotency, type IdempotencyOptions } from './idempotency.hooks.js'
export { HeldKey, purgeExpiredKeys } from './idempotency-key.js'
export { idempotencyTestRoutes } from './idempotency-test.routes.js'
