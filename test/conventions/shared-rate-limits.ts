import { randomBytes } from 'node:crypto'
import { createServer, connect, type Server, type Socket } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildApp, type AppOptions } from '../../src/app.js'
import type { Database } from '../../src/db/database.js'
import type { ApiApp } from '../../src/http/api-app.js'

/** The real Redis the tests use (CI starts one, .ci/run). */
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const redisAddress = new URL(REDIS_URL)

/** Keys of their own in the shared Redis, for every test app: test files and both backends run at once. */
export function redisKeyPrefix(): string {
  return `kassa-test:${randomBytes(6).toString('hex')}:`
}

export interface RateLimitStoreUnderTest {
  name: 'database' | 'redis'
  /** The options of an app using this store; every call a new set of Redis keys (apps that share limits share one). */
  options(): Pick<AppOptions['config'], 'redisUrl'> & { rateLimits: NonNullable<AppOptions['rateLimits']> }
  /** Long enough for every instance to have seen every other's counts: the database store syncs every 25 ms here. */
  settle(): Promise<void>
}

export const RATE_LIMIT_STORES: RateLimitStoreUnderTest[] = [
  { name: 'database', options: () => ({ rateLimits: { syncMilliseconds: 25 } }), settle: () => sleep(300) },
  { name: 'redis', options: () => ({ redisUrl: REDIS_URL, rateLimits: { redisKeyPrefix: redisKeyPrefix() } }), settle: async () => undefined },
]

/** Another instance of the app on `database`, as a second process would be, without background workers. */
export async function instanceOn(database: Database, config: Partial<AppOptions['config']>, rateLimits: AppOptions['rateLimits']): Promise<ApiApp> {
  const app = await buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent', ...config },
    database,
    rateLimits,
    paymentWorkerIntervalMilliseconds: false,
    webhooks: { startWorker: false },
  })
  await app.ready()
  return app
}

/**
 * The destination the app's logger writes every line to (its request loggers are its children and share it):
 * pino keeps it under its `pino.stream` symbol, looked up by name so the test needs no import of pino itself.
 */
export function logDestination(logger: object): { write(line: string): boolean } {
  for (let holder: object | null = logger; holder; holder = Object.getPrototypeOf(holder)) {
    const symbol = Object.getOwnPropertySymbols(holder).find((candidate) => candidate.description === 'pino.stream')
    if (symbol) return (holder as Record<symbol, { write(line: string): boolean }>)[symbol]!
  }
  throw new Error('the logger has no pino.stream')
}

/** A TCP relay to the real Redis that a test can cut and restore on the same port: Redis going away, as a client sees it. */
export async function redisRelay(): Promise<{ url: string; cut(): Promise<void>; restore(): Promise<void>; stall(): void; resume(): void }> {
  const sockets = new Set<Socket>()
  /** The connections' client sides and their Redis sides: what stall() holds back. */
  const pairs = new Map<Socket, Socket>()
  let server: Server
  let port = 0
  const listen = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(redisAddress.port || 6379), redisAddress.hostname)
      for (const socket of [client, upstream]) {
        sockets.add(socket)
        socket.on('close', () => sockets.delete(socket))
        socket.on('error', () => undefined)
      }
      client.pipe(upstream).pipe(client)
      pairs.set(client, upstream)
      client.on('close', () => pairs.delete(client))
      client.on('close', () => upstream.destroy())
      upstream.on('close', () => client.destroy())
    })
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    port = (server.address() as { port: number }).port
  }
  await listen()
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()))
      for (const socket of sockets) socket.destroy()
      await closed
    },
    restore: listen,
    /** Redis hung, as a client sees it: connected, but no command reaches it until resume(). */
    stall() {
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream)
        client.pause()
      }
    },
    resume() {
      for (const [client, upstream] of pairs) client.pipe(upstream)
    },
  }
}
