/**
 * `npx tsx bench/payments.ts`: creating credit transfers (issues 4 and 14), Kassa side by side in one run with
 * two baselines — the floor for these writes, a minimal server doing Kassa's reads and row writes with prepared
 * statements (prepared-write-server.ts), and a bare Fastify handler that only parses the body and answers.
 *
 * Every request is `POST /payments/v2/credit-transfers` with a new Idempotency-Key and a distinct body, so each
 * one validates like a bank, evaluates the approval chains, stores the payment, its Owner step, its CREATED event
 * and the idempotent response — one transaction. One server runs at a time, each in its own process(es):
 * - SQLite (a temporary file): Kassa (`kassa serve`), the floor with one transaction per request, the floor with
 *   group commit, bare.
 * - PostgreSQL, when BENCH_DATABASE_URL names a server (a scratch database is created and dropped): Kassa with one
 *   process, Kassa with two (`kassa serve`, KASSA_WORKERS=2), the floor (two round trips), bare.
 *
 * Beside Kassa, each backend runs Kassa as issue 14 was filed (as-filed.ts: commit 2e4cc7d, one process, its own
 * scratch database) for the "≥ 3×" and "≥ 5× today's throughput"; BENCH_AS_FILED=0 leaves it out.
 *
 * Every backend runs BENCH_ROUNDS rounds of all its servers in that order, so that Kassa and its floor meet the same
 * host conditions back to back (this host's speed drifts by a third within minutes); the table shows the round with
 * the median Kassa ÷ floor ratio, and every round's ratio beside it.
 *
 * Knobs: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s), BENCH_WARMUP (2 s), BENCH_ROUNDS (3), BENCH_WRITE_DOCS=0 to
 * leave docs/benchmarks.md alone.
 */
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { AS_FILED_COMMIT, checkOutAsFiled, type AsFiledCheckout } from './as-filed.js'
import { prepareKassaDatabase, startKassaServe, type KassaOwner } from './kassa-serve.js'
import { measure, type LoadSettings, type Measurement, type Target } from './load.js'
import { describeMachine } from './machine.js'
import { asFiledName, FLOOR, floorOf, paymentsSection, type Line } from './payments-report.js'
import { writeMarkedSection } from './report.js'
import { basicAuth, counterpartyBody } from './seed.js'
import { scratchPostgres, scratchSqlite, startBare, startPreparedWrite, type ScratchDatabase, type Server } from './servers.js'

const PATH = '/payments/v2/credit-transfers'

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number`)
  return value
}

const settings: LoadSettings = {
  connections: numberFromEnv('BENCH_CONNECTIONS', 50),
  duration: numberFromEnv('BENCH_DURATION', 10),
  warmup: numberFromEnv('BENCH_WARMUP', 2),
}
const rounds = Math.max(1, Math.round(numberFromEnv('BENCH_ROUNDS', 3)))

function log(message: string): void {
  process.stderr.write(`${message}\n`)
}

async function call(url: string, init: RequestInit, expectStatus: number): Promise<unknown> {
  const response = await fetch(url, init)
  const text = await response.text()
  if (response.status !== expectStatus) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`)
  return JSON.parse(text) as unknown
}

interface Seeded {
  /** The create body of request `n`: a distinct amount and reference each time. */
  body(n: number): string
  /** A credit transfer Kassa created: the bare server answers with it, the floor answers in its shape. */
  creditTransfer: unknown
}

/** An EUR source account, a counterparty to pay, and one credit transfer created by Kassa. */
async function seed(kassaUrl: string, authorization: string): Promise<Seeded> {
  const headers = { authorization, 'content-type': 'application/json' }
  const accounts = (await call(`${kassaUrl}/financial-data/v2/accounts?currency=EUR`, { headers }, 200)) as { items: Array<{ id: string }> }
  const created = (await call(`${kassaUrl}/payments/v2/counterparties`, { method: 'POST', headers, body: counterpartyBody(0) }, 201)) as {
    accounts: Array<{ id: string }>
  }
  const sourceId = accounts.items[0]!.id
  const destinationId = created.accounts[0]!.id
  const date = new Date().toISOString().slice(0, 10)
  const body = (n: number) =>
    JSON.stringify({
      amount: { currency: 'EUR', value: 1_00 + (n % 100_000) },
      date,
      scheme: 'SCT',
      source: { type: 'ACCOUNT', id: sourceId },
      destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
      reference: `Invoice ${n}`,
      metadata: { source: 'bench' },
    })
  return { body, creditTransfer: await call(`${kassaUrl}${PATH}`, { method: 'POST', headers, body: body(0) }, 201) }
}

/** A new Idempotency-Key and a new body on every request. */
function freshCreates(seeded: Seeded, headers: Record<string, string>): Target['setupRequest'] {
  const run = randomBytes(4).toString('hex')
  let n = 0
  return (request) => {
    n += 1
    request.headers = { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-payments-${run}-${n}` }
    request.body = seeded.body(n + 1)
    return request
  }
}

function summary(m: Measurement): string {
  const cpu = m.cpuPerRequest === undefined ? '' : `, ${Math.round(m.cpuPerRequest)} µs CPU/request`
  return `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms${cpu}`
}

/** Measures creates against a running server: one line of the table. */
async function measureCreates(
  backend: Line['backend'],
  scratch: ScratchDatabase,
  server: string,
  running: Server<unknown>,
  seeded: Seeded,
  headers: Record<string, string> = {},
): Promise<Line> {
  await scratch.settle()
  const measurement = await measure(
    { url: running.url, method: 'POST', path: PATH, setupRequest: freshCreates(seeded, headers), expectStatus: 201, cpuMicros: running.cpuMicros },
    settings,
  )
  log(`[${backend}] ${server}: ${summary(measurement)}`)
  return { backend, server, measurement, load: loadavg()[0]! }
}

async function stopping<T>(running: Server<unknown>, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } finally {
    await running.stop()
  }
}

/** A Kassa on its own seeded database: this checkout's, or the one of the issue as filed. */
interface SeededKassa {
  scratch: ScratchDatabase
  owner: KassaOwner
  seeded: Seeded
  checkout?: string
}

/** Migrates and seeds `scratch` with the checkout's Kassa (this one unless named). */
async function seededKassa(scratch: ScratchDatabase, checkout?: string): Promise<SeededKassa> {
  const owner = await prepareKassaDatabase(scratch.url, checkout)
  const kassa = await startKassaServe(scratch.url, 1, owner, checkout)
  const seeded = await stopping(kassa, () => seed(kassa.url, basicAuth(owner.accessKey, owner.secret)))
  return { scratch, owner, seeded, checkout }
}

/** One line of creates against a Kassa with `workers` processes on its seeded database. */
async function kassaLine(backend: Line['backend'], server: string, target: SeededKassa, workers: number): Promise<Line> {
  const { scratch, owner, seeded, checkout } = target
  const kassa = await startKassaServe(scratch.url, workers, owner, checkout)
  const headers = { authorization: basicAuth(owner.accessKey, owner.secret) }
  return stopping(kassa, () => measureCreates(backend, scratch, server, kassa, seeded, headers))
}

/**
 * One round: Kassa with each number of processes in `kassaWorkers`, Kassa as filed (one process, when checked out),
 * the floor with each of `floors` on Kassa's database, then bare.
 */
async function roundLines(
  backend: Line['backend'],
  current: SeededKassa,
  asFiled: SeededKassa | undefined,
  kassaWorkers: number[],
  floors: Array<'per-request' | 'group'>,
): Promise<Line[]> {
  const { scratch, seeded } = current
  const lines: Line[] = []
  for (const workers of kassaWorkers) {
    lines.push(await kassaLine(backend, workers === 1 ? 'Kassa, 1 process' : `Kassa, ${workers} processes`, current, workers))
  }
  if (asFiled) lines.push(await kassaLine(backend, asFiledName(AS_FILED_COMMIT), asFiled, 1))
  const { creditTransfer } = seeded
  for (const commit of floors) {
    const server = backend === 'PostgreSQL' ? FLOOR.postgres : FLOOR[commit]
    const floor = await startPreparedWrite({ databaseUrl: scratch.url, commit, creditTransfer })
    lines.push(await stopping(floor, () => measureCreates(backend, scratch, server, floor, seeded)))
  }
  const bare = await startBare({ counterparty: {}, list: {}, created: {}, creditTransfer })
  lines.push(await stopping(bare, () => measureCreates(backend, scratch, 'bare', bare, seeded)))
  return lines
}

/** Kassa (the first line, one process) over the floor in one round's lines. */
function share(lines: Line[]): number {
  return lines[0]!.measurement.requestsPerSecond / floorOf(lines, lines[0]!.backend)!.measurement.requestsPerSecond
}

/**
 * `rounds` rounds of every server on one database (Kassa seeds it first); the lines of the round with the median
 * Kassa ÷ floor ratio, each Kassa line carrying its ratio in every round.
 */
async function backendLines(
  backend: Line['backend'],
  scratch: () => Promise<ScratchDatabase>,
  asFiledCheckout: AsFiledCheckout | undefined,
  kassaWorkers: number[],
  floors: Array<'per-request' | 'group'>,
): Promise<Line[]> {
  const scratches: ScratchDatabase[] = []
  const fresh = async () => {
    const made = await scratch()
    scratches.push(made)
    return made
  }
  try {
    const current = await seededKassa(await fresh())
    const asFiled = asFiledCheckout && (await seededKassa(await fresh(), asFiledCheckout.root))
    const all: Line[][] = []
    for (let n = 1; n <= rounds; n += 1) {
      const lines = await roundLines(backend, current, asFiled, kassaWorkers, floors)
      log(`[${backend}] round ${n}: Kassa at ${(share(lines) * 100).toFixed(0)}% of the floor`)
      all.push(lines)
    }
    const median = [...all].sort((a, b) => share(a) - share(b))[Math.floor((all.length - 1) / 2)]!
    const floorOfRound = (lines: Line[]) => floorOf(lines, backend)!.measurement.requestsPerSecond
    return median.map((line, index) =>
      line.server.startsWith('Kassa') ? { ...line, roundShares: all.map((lines) => lines[index]!.measurement.requestsPerSecond / floorOfRound(lines)) } : line,
    )
  } finally {
    for (const made of scratches) await made.destroy()
  }
}

async function main(): Promise<void> {
  const began = performance.now()
  const asFiled = checkOutAsFiled()
  const postgresUrl = process.env.BENCH_DATABASE_URL
  const lines: Line[] = []
  try {
    lines.push(...(await backendLines('SQLite', async () => scratchSqlite(), asFiled, [1], ['per-request', 'group'])))
    if (postgresUrl) lines.push(...(await backendLines('PostgreSQL', () => scratchPostgres(postgresUrl), asFiled, [1, 2], ['per-request'])))
  } finally {
    asFiled?.remove()
  }
  const text = paymentsSection(lines, {
    machine: describeMachine(),
    settings,
    rounds,
    command: `${postgresUrl ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npx tsx bench/payments.ts`,
    seconds: (performance.now() - began) / 1000,
  })
  console.log(`\n${text}\n`)
  if (process.env.BENCH_WRITE_DOCS !== '0') {
    const path = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
    writeMarkedSection(path, 'payments', 'npx tsx bench/payments.ts', text)
    console.log(`wrote ${path}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
