/**
 * `npx tsx bench/webhooks.ts`: webhook delivery throughput and latency (issue 5).
 *
 * Kassa (`buildApp`, its delivery worker at the production settings) and a receiver (node:http,
 * answers 200 at once) share this process, on loopback. Two measurements per backend:
 * - throughput: N deliveries are enqueued with the worker stopped, then the worker is started and
 *   timed until the receiver has all N: deliveries per second.
 * - latency: counterparties are created one at a time at a steady rate with the worker running;
 *   each delivery's latency runs from its event's timestamp (taken inside the committing
 *   transaction) to the moment the receiver has the whole request: p50/p99.
 *
 * SQLite always (a temporary file); PostgreSQL too when BENCH_DATABASE_URL names a server (a
 * scratch database is created and dropped). Knobs: BENCH_WEBHOOK_DELIVERIES (2000),
 * BENCH_WEBHOOK_LATENCY_EVENTS (400), BENCH_WEBHOOK_RATE (50 counterparties/s),
 * BENCH_WRITE_DOCS=0 to leave docs/benchmarks.md alone.
 */
import { writeMarkedSection } from './report.js'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { availableParallelism, cpus, loadavg, tmpdir, totalmem } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { openDatabase, type Database } from '../src/db/database.js'
import { buildApp } from '../src/app.js'
import { createSandboxOrganization } from '../src/organizations/organization.service.js'

const DELIVERIES = Number(process.env.BENCH_WEBHOOK_DELIVERIES ?? 2000)
const LATENCY_EVENTS = Number(process.env.BENCH_WEBHOOK_LATENCY_EVENTS ?? 400)
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? 50)

interface Result {
  backend: string
  deliveriesPerSecond: number
  /** CPU time of this process (Kassa and receiver) per delivery while draining, in microseconds. */
  cpuPerDelivery: number
  p50: number
  p99: number
  max: number
}

interface Scratch {
  label: string
  url: string
  drop(): Promise<void>
}

function scratchSqlite(): Scratch {
  const directory = mkdtempSync(join(tmpdir(), 'kassa-bench-webhooks-'))
  return { label: 'SQLite', url: `sqlite:${join(directory, 'kassa.sqlite')}`, drop: async () => rmSync(directory, { recursive: true, force: true }) }
}

async function admin(url: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

async function scratchPostgres(serverUrl: string): Promise<Scratch> {
  const name = `kassa_bench_${randomBytes(5).toString('hex')}`
  await admin(serverUrl, `create database ${name}`)
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  return { label: 'PostgreSQL', url: url.toString(), drop: () => admin(serverUrl, `drop database if exists ${name} with (force)`) }
}

interface Receiver {
  url: string
  count: number
  latencies: number[]
  reached(count: number): Promise<void>
  close(): Promise<void>
}

async function startReceiver(): Promise<Receiver> {
  let waiting: { count: number; resolve: () => void } | undefined
  const receiver: Receiver = {
    url: '',
    count: 0,
    latencies: [],
    reached(count) {
      if (receiver.count >= count) return Promise.resolve()
      return new Promise((resolve) => (waiting = { count, resolve }))
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const arrived = Date.now()
      const payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { event: { timestamp: string } }
      receiver.latencies.push(arrived - Date.parse(payload.event.timestamp))
      receiver.count += 1
      response.end()
      if (waiting && receiver.count >= waiting.count) waiting.resolve()
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`
  return receiver
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

async function startKassa(database: Database) {
  await database.migrate()
  const app = await buildApp({
    config: { rateLimitPerMinute: 10_000_000, maintenance: false, logLevel: 'silent', webhookAllowLoopback: true },
    database,
    webhooks: { startWorker: false },
  })
  await app.ready()
  const owner = await createSandboxOrganization(database, 'Webhook benchmark')
  const authorization = `Basic ${Buffer.from(`${owner.accessKey}:${owner.secret}`).toString('base64')}`
  const post = async (url: string, body: unknown) => {
    const response = await app.inject({ method: 'POST', url, headers: { authorization, 'content-type': 'application/json' }, payload: JSON.stringify(body) })
    if (response.statusCode !== 201) throw new Error(`POST ${url} answered ${response.statusCode}: ${response.body}`)
    return response.json<{ id: string }>()
  }
  return { app, post }
}

/** One counterparty with one IBAN account: two events (the counterparty's and the account's). */
function counterparty(i: number) {
  return { legalName: `Bench ${i}`, accounts: [{ market: 'DE', identifiers: [{ market: 'DE', type: 'IBAN', number: 'DE89370400440532013000' }] }] }
}

async function run(scratch: Scratch): Promise<Result> {
  const database = openDatabase(scratch.url)
  const receiver = await startReceiver()
  const { app, post } = await startKassa(database)
  try {
    await post('/v1/webhooks', { url: receiver.url, filter: [{ resource: 'counterparties', apiVersion: 2 }, { resource: 'external_accounts', apiVersion: 2 }] })

    // Throughput: a backlog of DELIVERIES, drained by a worker started afterwards.
    for (let i = 0; i < DELIVERIES / 2; i++) await post('/payments/v2/counterparties', counterparty(i))
    const started = performance.now()
    const cpuBefore = process.cpuUsage()
    app.webhookDeliveries.start()
    await receiver.reached(DELIVERIES)
    const deliveriesPerSecond = DELIVERIES / ((performance.now() - started) / 1000)
    const cpu = process.cpuUsage(cpuBefore)
    const cpuPerDelivery = (cpu.user + cpu.system) / DELIVERIES
    process.stderr.write(`[${scratch.label}] drained ${DELIVERIES} deliveries at ${Math.round(deliveriesPerSecond)}/s, ${Math.round(cpuPerDelivery)} µs CPU each\n`)

    // Latency: a steady trickle of writes with the worker running.
    receiver.latencies = []
    const interval = 1000 / RATE
    const base = receiver.count
    for (let i = 0; i < LATENCY_EVENTS / 2; i++) {
      const due = performance.now() + interval
      await post('/payments/v2/counterparties', counterparty(i))
      const wait = due - performance.now()
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    }
    await receiver.reached(base + LATENCY_EVENTS)
    const latencies = receiver.latencies
    const result = { backend: scratch.label, deliveriesPerSecond, cpuPerDelivery, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies) }
    process.stderr.write(`[${scratch.label}] commit → receipt p50 ${result.p50} ms, p99 ${result.p99} ms, max ${result.max} ms\n`)
    return result
  } finally {
    await app.close()
    await receiver.close()
    await database.close()
    await scratch.drop()
  }
}


function commit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

function section(results: Result[], seconds: number, load: number): string {
  const line = (values: Array<string | number>) => `| ${values.join(' | ')} |`
  return [
    '## Webhooks: delivery throughput and commit-to-receipt latency (issue 5)',
    '',
    `Run \`${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npx tsx bench/webhooks.ts\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${Math.round(seconds)} s), commit ${commit()}.`,
    '',
    `- Machine: ${availableParallelism()} CPUs (${cpus()[0]?.model.trim() ?? 'unknown'}), ${Math.round(totalmem() / 1024 ** 3)} GiB memory, Node ${process.version};`,
    `  load average ${load.toFixed(1)} when the run began (other work shares the machine: compare CPU/delivery rather than rates)`,
    '- Kassa (`buildApp`, production delivery settings: 16 attempts in flight, 1 s poll, nudged by each HTTP write) and the receiver',
    '  (node:http on loopback, answers 200 at once; keep-alive) share one process; every delivery is signed (one key) and its',
    '  outcome and attempt are written to the database',
    `- Throughput: ${DELIVERIES} deliveries (counterparty and external-account CREATED events) enqueued with the worker stopped, then`,
    '  drained by it; deliveries/s = count ÷ time from start to the last arrival',
    `- Latency: ${LATENCY_EVENTS / 2} counterparties created one at a time at ${RATE}/s over HTTP (inject), ${LATENCY_EVENTS} deliveries; from the`,
    "  event's timestamp (taken inside the committing transaction) to the receiver having the whole request",
    '',
    line(['Backend', 'Deliveries/s', 'CPU/delivery', 'CPU-bound rate', 'Latency p50', 'p99', 'max']),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...results.map((r) =>
      line([
        r.backend,
        Math.round(r.deliveriesPerSecond).toLocaleString('en-US'),
        `${Math.round(r.cpuPerDelivery)} µs`,
        `${Math.round(1e6 / r.cpuPerDelivery).toLocaleString('en-US')}/s`,
        `${r.p50} ms`,
        `${r.p99} ms`,
        `${r.max} ms`,
      ]),
    ),
    '',
    'CPU/delivery is the process time (Kassa, its database driver, and the receiver) spent per delivery while draining;',
    'CPU-bound rate is one core divided by it: what the drain approaches on an otherwise idle core. Writes from other',
    'processes (the CLI, a second server) are not nudged: they wait for the next poll, up to 1 s.',
  ].join('\n')
}

/** This benchmark's section of docs/benchmarks.md, between its markers. */
function writeSection(text: string): string {
  const path = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
  writeMarkedSection(path, 'webhooks', 'npx tsx bench/webhooks.ts', text)
  return path
}

async function main(): Promise<void> {
  const began = performance.now()
  const load = loadavg()[0]!
  const results = [await run(scratchSqlite())]
  if (process.env.BENCH_DATABASE_URL) results.push(await run(await scratchPostgres(process.env.BENCH_DATABASE_URL)))
  const text = section(results, (performance.now() - began) / 1000, load)
  console.log(`\n${text}\n`)
  if (process.env.BENCH_WRITE_DOCS !== '0') console.log(`wrote ${writeSection(text)}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
