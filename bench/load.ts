/** One measurement: autocannon against one server, after a warm-up, checked for errors and unexpected statuses. */
import autocannon, { type RequestSpec, type Result } from 'autocannon'

export interface LoadSettings {
  connections: number
  /** Seconds measured. */
  duration: number
  /** Seconds of the same load before measuring, not counted (JIT, caches, SQLite page cache). */
  warmup: number
}

export interface Target {
  url: string
  method: 'GET' | 'POST'
  path: string
  headers?: Record<string, string>
  body?: string
  /** Called before every request, e.g. for a fresh Idempotency-Key and body. */
  setupRequest?: RequestSpec['setupRequest']
  /** Every response must have this status; anything else fails the run. */
  expectStatus: number
  /** The server process's CPU time so far (µs): measured around the run, it gives the CPU cost per request. */
  cpuMicros?: () => Promise<number>
}

export interface Measurement {
  requestsPerSecond: number
  /** Milliseconds. */
  latencyP50: number
  latencyP99: number
  latencyAverage: number
  requests: number
  /**
   * Server CPU time (user + system) per request, in microseconds. Unlike req/s it hardly depends on
   * what else runs on the machine, so the CPU ratio is the steadier comparison on a busy host.
   */
  cpuPerRequest: number | undefined
}

function run(target: Target, connections: number, duration: number): Promise<Result> {
  return Promise.resolve(
    autocannon({
      url: target.url,
      connections,
      duration,
      requests: [
        {
          method: target.method,
          path: target.path,
          ...(target.headers ? { headers: target.headers } : {}),
          ...(target.body !== undefined ? { body: target.body } : {}),
          ...(target.setupRequest ? { setupRequest: target.setupRequest } : {}),
        },
      ],
    }),
  )
}

function check(result: Result, target: Target, phase: string): void {
  const unexpected = Object.entries(result.statusCodeStats)
    .filter(([status]) => Number(status) !== target.expectStatus)
    .map(([status, { count }]) => `${count}× ${status}`)
  if (result.errors > 0 || result.timeouts > 0 || unexpected.length > 0) {
    throw new Error(
      `${target.method} ${target.url}${target.path} (${phase}): expected only ${target.expectStatus}, got ` +
        [...unexpected, `${result.errors} errors`, `${result.timeouts} timeouts`].join(', '),
    )
  }
}

export async function measure(target: Target, settings: LoadSettings): Promise<Measurement> {
  if (settings.warmup > 0) check(await run(target, settings.connections, settings.warmup), target, 'warm-up')
  const cpuBefore = await target.cpuMicros?.()
  const result = await run(target, settings.connections, settings.duration)
  const cpuAfter = await target.cpuMicros?.()
  check(result, target, 'measurement')
  // Every request autocannon sent was answered (check() saw only the expected status), plus those it abandoned at the end.
  const answered = result['2xx']
  return {
    requestsPerSecond: result.requests.average,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
    latencyAverage: result.latency.average,
    requests: answered,
    cpuPerRequest: cpuBefore !== undefined && cpuAfter !== undefined && answered > 0 ? (cpuAfter - cpuBefore) / answered : undefined,
  }
}
