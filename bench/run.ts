/**
 * `npm run bench`: issue 2's first benchmark. Starts Kassa (`kassa serve`) on a fresh SQLite database (and, when
 * BENCH_DATABASE_URL is set, on a fresh PostgreSQL database with one process, then on another with two — issue 14)
 * and a bare Fastify server, measures each scenario against both with autocannon, prints the table and rewrites
 * its section of docs/benchmarks.md.
 *
 * Knobs (environment): BENCH_CONNECTIONS (50), BENCH_DURATION (5 s), BENCH_WARMUP (2 s), BENCH_ROUNDS (5), BENCH_SEED (200),
 * BENCH_WRITE_DOCS=0 to leave the docs alone, BENCH_ONLY=<substring of a scenario name>,
 * BENCH_KASSA_NODE_OPTIONS for flags of the Kassa process (e.g. --cpu-prof).
 */
import { availableParallelism, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { measure, type LoadSettings, type Measurement } from './load.js'
import { describeMachine } from './machine.js'
import { consoleTable, ratio, targetVerdicts, writeSection, type Row } from './report.js'
import { scenarios, type Scenario } from './scenarios.js'
import { basicAuth, seed } from './seed.js'
import { prepareKassaDatabase, startKassaServe } from './kassa-serve.js'
import { scratchPostgres, scratchSqlite, startBare, type ScratchDatabase } from './servers.js'

function numberFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, not ${raw}`)
  return value
}

const settings: LoadSettings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  duration: numberFromEnv('BENCH_DURATION', 5),
  warmup: numberFromEnv('BENCH_WARMUP', 2),
}
const rounds = Math.max(1, Math.round(numberFromEnv('BENCH_ROUNDS', 5)))
const seedCount = numberFromEnv('BENCH_SEED', 200)
const only = process.env.BENCH_ONLY

function log(message: string): void {
  process.stderr.write(`${message}\n`)
}

function summary(measurement: Measurement): string {
  const cpu = measurement.cpuPerRequest === undefined ? '' : `, ${Math.round(measurement.cpuPerRequest)} µs CPU/request`
  return `${Math.round(measurement.requestsPerSecond)} req/s, p50 ${measurement.latencyP50} ms, p99 ${measurement.latencyP99} ms${cpu}`
}

interface Backend {
  label: string
  database: () => Promise<ScratchDatabase>
  /** Kassa's HTTP processes (KASSA_WORKERS). */
  workers: number
}

/**
 * Runs every scenario on one backend: `rounds` pairs of measurements, the bare handler then Kassa, one
 * right after the other, so both sides of a pair meet the same host conditions (this host's speed drifts
 * by a third within minutes). The row is the pair with the median ratio.
 */
async function round(backend: Backend): Promise<Row[]> {
  const scratch = await backend.database()
  const owner = await prepareKassaDatabase(scratch.url)
  const kassa = await startKassaServe(scratch.url, backend.workers, owner)
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  try {
    const authorization = basicAuth(owner.accessKey, owner.secret)
    log(`[${backend.label}] seeding ${seedCount} counterparties`)
    const seeded = await seed(kassa.url, authorization, seedCount)
    bare = await startBare(seeded.bodies)
    const list = scenarios({
      kassaUrl: kassa.url,
      bareUrl: bare.url,
      kassaCpu: kassa.cpuMicros,
      bareCpu: bare.cpuMicros,
      authorization,
      counterpartyId: seeded.counterpartyId,
    }).filter((scenario: Scenario) => only === undefined || scenario.name.includes(only))
    const rows: Row[] = []
    for (const scenario of list) {
      const pairs: Row[] = []
      for (let n = 1; n <= rounds; n += 1) {
        const bareResult = await measure(scenario.bare, settings)
        const kassaResult = await measure(scenario.kassa, settings)
        const pair: Row = { name: scenario.name, backend: backend.label, kassa: kassaResult, bare: bareResult, roundRatios: [] }
        log(`[${backend.label}] ${scenario.name}, round ${n}: bare ${summary(bareResult)}; Kassa ${summary(kassaResult)} — ${(ratio(pair) * 100).toFixed(0)}% of bare`)
        pairs.push(pair)
      }
      const sorted = [...pairs].sort((a, b) => ratio(a) - ratio(b))
      rows.push({ ...sorted[Math.floor((sorted.length - 1) / 2)]!, roundRatios: pairs.map(ratio) })
    }
    return rows
  } finally {
    await bare?.stop()
    await kassa.stop()
    await scratch.destroy()
  }
}

async function main(): Promise<void> {
  const started = Date.now()
  const loadAtStart = loadavg()[0]!
  const cpus = availableParallelism()
  if (loadAtStart > cpus / 2) {
    log(`warning: the host is busy (load average ${loadAtStart.toFixed(1)} on ${cpus} CPUs); req/s will be low on both sides, and noisy`)
  }
  const backends: Backend[] = [{ label: 'SQLite', database: async () => scratchSqlite(), workers: 1 }]
  const postgresUrl = process.env.BENCH_DATABASE_URL
  if (postgresUrl) {
    backends.push({ label: 'PostgreSQL', database: () => scratchPostgres(postgresUrl), workers: 1 })
    backends.push({ label: 'PostgreSQL, 2 processes', database: () => scratchPostgres(postgresUrl), workers: 2 })
  }

  const rows: Row[] = []
  for (const backend of backends) rows.push(...(await round(backend)))

  const report = {
    rows,
    machine: describeMachine(),
    settings,
    command: postgresUrl ? 'BENCH_DATABASE_URL=postgres://… npm run bench' : 'npm run bench',
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    elapsed: (Date.now() - started) / 1000,
    seeded: seedCount,
    rounds,
    load: [loadAtStart, loadavg()[0]!] as [number, number],
  }
  console.log(`\n${consoleTable(rows)}\n`)
  console.log(`host load average: ${report.load[0].toFixed(1)} at the start, ${report.load[1].toFixed(1)} at the end (${report.machine.cpus} CPUs)`)
  for (const verdict of targetVerdicts(rows)) console.log(verdict)
  if (process.env.BENCH_WRITE_DOCS !== '0' && only === undefined) {
    const path = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
    writeSection(path, report)
    console.log(`\nwrote ${path}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
