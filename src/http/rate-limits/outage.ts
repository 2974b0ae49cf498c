import type { FastifyBaseLogger } from 'fastify'

export type StoreLog = Pick<FastifyBaseLogger, 'info' | 'warn'>

/**
 * The state of a shared store's connection, logged on change only — one warning when it is lost, one line when it
 * is back — never once per request, which would flood the log exactly when the store is down.
 */
export function createOutage(log: StoreLog, store: string, meanwhile: string) {
  let down = false
  return {
    get down(): boolean {
      return down
    },
    lost(error?: unknown): void {
      if (down) return
      down = true
      log.warn({ err: error instanceof Error ? { message: error.message } : undefined }, `rate limits: ${store} unreachable; ${meanwhile}`)
    },
    restored(): void {
      if (!down) return
      down = false
      log.info(`rate limits: ${store} reachable again; limits are shared across processes again`)
    },
  }
}
