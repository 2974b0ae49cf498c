export { registerIdempotency, type IdempotencyOptions } from './idempotency.hooks.js'
export { purgeExpiredKeys, type HeldKey } from './idempotency-key.js'
export { idempotencyTestRoutes } from './idempotency-test.routes.js'
