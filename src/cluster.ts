import cluster, { type Worker } from 'node:cluster'
import { pino } from 'pino'
import type { Config } from './config/config.js'
import { SHUTDOWN_MESSAGE } from './http/shutdown.js'

/** How long the workers get to finish their requests and background work once told to shut down. */
export const SHUTDOWN_DEADLINE_MILLISECONDS = 30_000

/**
 * The primary process of `kassa serve --workers N` (issue 14): forks N workers that serve HTTP on one
 * shared port (node:cluster hands each new connection to one of them) and serves nothing itself; the
 * database was migrated and seeded before it forks. A worker that dies while serving is replaced (a
 * log line names its exit); one that dies before it ever listened is a failure to start — the port,
 * the database — which would only repeat, so everything stops and the primary exits 1.
 *
 * SIGINT or SIGTERM: every worker is told to close (http/shutdown.ts closeOnShutdown) — requests in
 * flight finish, late ones get a 503 with Retry-After, background workers finish their claims — and the
 * primary exits 0 once all exited cleanly, 1 if one did not, or if any still runs after
 * SHUTDOWN_DEADLINE_MILLISECONDS (those are killed). A second signal ends the primary at once.
 */
export function runPrimary(config: Pick<Config, 'workers' | 'logLevel'>): void {
  const log = pino({ level: config.logLevel })
  const listened = new WeakSet<Worker>()
  let shuttingDown = false
  let failed = false

  const fork = () => {
    const worker = cluster.fork()
    worker.once('listening', () => {
      listened.add(worker)
      log.info({ worker: worker.process.pid }, 'a worker is serving')
      // Told now if the shutdown began while it started: it listens for the message only from here on.
      if (shuttingDown) worker.send(SHUTDOWN_MESSAGE)
    })
  }

  // Not dead, rather than listed: node:cluster lists a worker until it has both exited and disconnected, and its 'exit'
  // may come first — the last worker's exit then found itself still listed, nothing exited the primary, and it ended
  // by itself with code 0 after a failed start (test/processes/serve-workers.test.ts, once in CI).
  const running = () => Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && !worker.isDead())

  const shutDown = (reason: string) => {
    if (shuttingDown) return
    shuttingDown = true
    log.info({ reason, workers: running().length }, 'shutting down: the workers finish their requests')
    for (const worker of running()) if (listened.has(worker) && worker.isConnected()) worker.send(SHUTDOWN_MESSAGE)
    setTimeout(() => {
      log.error({ workers: running().map((worker) => worker.process.pid) }, `workers still running ${SHUTDOWN_DEADLINE_MILLISECONDS / 1000} s after shutdown began; killed`)
      for (const worker of running()) worker.process.kill('SIGKILL')
      process.exit(1)
    }, SHUTDOWN_DEADLINE_MILLISECONDS).unref()
    if (running().length === 0) process.exit(failed ? 1 : 0)
  }

  cluster.on('exit', (worker, code, signal) => {
    const exit = { worker: worker.process.pid, code, signal }
    if (shuttingDown) {
      if (code !== 0) {
        failed = true
        log.error(exit, 'a worker did not shut down cleanly')
      }
      if (running().length === 0) process.exit(failed ? 1 : 0)
    } else if (listened.has(worker)) {
      log.error(exit, 'a worker exited unexpectedly; starting another')
      fork()
    } else {
      failed = true
      log.error(exit, 'a worker exited before it served; stopping')
      shutDown('a worker failed to start')
    }
  })
  process.once('SIGINT', () => shutDown('SIGINT'))
  process.once('SIGTERM', () => shutDown('SIGTERM'))
  for (let index = 0; index < config.workers; index++) fork()
  log.info({ workers: config.workers }, 'started the workers')
}
