/**
 * `npx tsx bench/payments.ts`: creating credit transfers (issue 4) against a bare Fastify handler,
 * in the same run on the same machine.
 *
 * Kassa runs as `buildApp` wires it, in its own process, with its payment worker off (nothing is
 * submitted or executed in the background: the API alone is measured). Every request is
 * `POST /payments/v2/credit-transfers` with a new Idempotency-Key and a distinct body, so each one
 * validates like a bank, evaluates the approval chains, stores the payment, its Owner step, its
 * CREATED event and webhook outbox rows, and the idempotent response — one transaction. The bare
 * server (its own process) parses the same JSON body and answers 201 with a credit transfer Kassa
 * created, serialized per request. The bare handler is measured right after Kassa on each backend.
 *
 * SQLite always (a temporary file); PostgreSQL too when BENCH_DATABASE_URL names a server (a
 * scratch database is created and dropped). Knobs: BENCH_CONNECTIONS (50), BENCH_DURATION (10 s),
 * BENCH_WARMUP (2 s), BENCH_WRITE_DOCS=0 to leave docs/benchmarks.md alone.
 */
import { writeMarkedSection } from './report.js'
import { randomBytes } from 'node:crypto'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { measure, type LoadSettings, type Measurement, type Target } from './load.js'
import { describeMachine, type Machine } from './machine.js'
import type { BareBodies } from './protocol.js'
import { basicAuth, counterpartyBody } from './seed.js'
import { scratchPostgres, scratchSqlite, startBare, startKassa, type ScratchDatabase } from './servers.js'

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

interface Row {
  backend: string
  kassa: Measurement
  bare: Measurement
  /** Credit transfers Kassa created in the measured seconds (warm-up excluded). */
  created: number
  /** 1-minute load average of the machine when the row was measured. */
  load: number
}

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
  bodies: BareBodies
}

/** An EUR source account, a counterparty to pay, and one credit transfer whose response the bare server answers with. */
async function seed(kassaUrl: string, authorization: string): Promise<Seeded> {
  const headers = { authorization, 'content-type': 'application/json' }
  const accounts = (await call(`${kassaUrl}/financial-data/v2/accounts?currency=EUR`, { headers }, 200)) as { items: Array<{ id: string }> }
  const created = (await call(`${kassaUrl}/payments/v2/counterparties`, { method: 'POST', headers, body: counterpartyBody(0) }, 201)) as {
    id: string
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
  const creditTransfer = await call(`${kassaUrl}${PATH}`, { method: 'POST', headers, body: body(0) }, 201)
  const counterparty = await call(`${kassaUrl}/payments/v2/counterparties/${created.id}`, { headers }, 200)
  const list = await call(`${kassaUrl}/payments/v2/counterparties?limit=100`, { headers }, 200)
  return { body, bodies: { counterparty, list, created, creditTransfer } }
}

/** A new Idempotency-Key and a new body on every request, numbered from `first`. */
function freshCreates(seeded: Seeded, headers: Record<string, string>, first: number): Target['setupRequest'] {
  const run = randomBytes(4).toString('hex')
  let n = first
  return (request) => {
    n += 1
    request.headers = { ...headers, 'content-type': 'application/json', 'idempotency-key': `bench-payments-${run}-${n}` }
    request.body = seeded.body(n)
    return request
  }
}

function summary(m: Measurement): string {
  const cpu = m.cpuPerRequest === undefined ? '' : `, ${Math.round(m.cpuPerRequest)} µs CPU/request`
  return `${Math.round(m.requestsPerSecond)} req/s, p50 ${m.latencyP50} ms, p99 ${m.latencyP99} ms${cpu}`
}

async function round(label: string, scratch: ScratchDatabase): Promise<Row> {
  const kassa = await startKassa(scratch.url, { paymentWorker: false })
  let bare: Awaited<ReturnType<typeof startBare>> | undefined
  try {
    const authorization = basicAuth(kassa.info.accessKey, kassa.info.secret)
    const seeded = await seed(kassa.url, authorization)
    bare = await startBare(seeded.bodies)
    const kassaResult = await measure(
      { url: kassa.url, method: 'POST', path: PATH, setupRequest: freshCreates(seeded, { authorization }, 1), expectStatus: 201, cpuMicros: kassa.cpuMicros },
      settings,
    )
    const load = loadavg()[0]!
    log(`[${label}] Kassa: ${summary(kassaResult)}`)
    const bareResult = await measure(
      { url: bare.url, method: 'POST', path: PATH, setupRequest: freshCreates(seeded, {}, 1), expectStatus: 201, cpuMicros: bare.cpuMicros },
      settings,
    )
    log(`[${label}] bare: ${summary(bareResult)}`)
    return { backend: label, kassa: kassaResult, bare: bareResult, created: kassaResult.requests, load }
  } finally {
    await bare?.stop()
    await kassa.stop()
    await scratch.destroy()
  }
}


const reqs = (m: Measurement) => Math.round(m.requestsPerSecond).toLocaleString('en-US')
const cpu = (m: Measurement) => (m.cpuPerRequest === undefined ? '–' : `${Math.round(m.cpuPerRequest).toLocaleString('en-US')} µs`)
const percent = (value: number) => `${(value * 100).toFixed(0)}%`

function section(rows: Row[], machine: Machine, seconds: number): string {
  const line = (values: string[]) => `| ${values.join(' | ')} |`
  return [
    '## Payments: creating credit transfers against a bare Fastify handler (issue 4)',
    '',
    `Run \`${process.env.BENCH_DATABASE_URL ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npx tsx bench/payments.ts\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${Math.round(seconds)} s in all), commit ${machine.commit}.`,
    '',
    `- Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory, ${machine.os}; Node ${machine.node}, Fastify ${machine.fastify}, autocannon ${machine.autocannon}`,
    `- Load: ${settings.connections} connections, ${settings.warmup} s warm-up then ${settings.duration} s measured per line, no pipelining; load generator and servers share the machine`,
    '- Kassa: `buildApp` in its own Node process, logLevel silent, rate limit on (never reached), HTTP Basic auth of a sandbox',
    '  owner key, **payment worker off** (nothing is submitted or executed: only the API is measured). Every request is',
    '  `POST /payments/v2/credit-transfers` with a new Idempotency-Key and a distinct body (amount, reference): validated as a bank',
    '  would (source account, destination, currency, date, SEPA scheme rules), approval chains evaluated (none: the Owner step),',
    '  the payment, its approval step, its CREATED event and webhook outbox rows, and the idempotent response stored in one',
    '  transaction; 201 with the full resource',
    '- Bare: a Fastify server in its own process that parses the same JSON body and answers 201 with a credit transfer Kassa',
    '  created (serialized per request) — no hooks, auth, validation or database; measured right after Kassa on each backend',
    '- CPU/request: server process CPU time (user + system) over the measured seconds ÷ requests answered; steadier than req/s',
    '  on a machine that is busy with other work (the load average column)',
    '',
    line(['Backend', 'Kassa req/s', 'p50', 'p99', 'CPU/req', 'Bare req/s', 'p50', 'p99', 'CPU/req', 'Kassa/bare req/s', 'Load avg']),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...rows.map((row) =>
      line([
        row.backend,
        reqs(row.kassa),
        `${row.kassa.latencyP50} ms`,
        `${row.kassa.latencyP99} ms`,
        cpu(row.kassa),
        reqs(row.bare),
        `${row.bare.latencyP50} ms`,
        `${row.bare.latencyP99} ms`,
        cpu(row.bare),
        percent(row.kassa.requestsPerSecond / row.bare.requestsPerSecond),
        row.load.toFixed(1),
      ]),
    ),
    '',
    `Credit transfers created in the measured seconds: ${rows.map((row) => `${row.created.toLocaleString('en-US')} (${row.backend})`).join(', ')}.`,
    "Latencies are autocannon's (whole milliseconds).",
  ].join('\n')
}

/** This benchmark's section of docs/benchmarks.md, between its markers. */
function writeSection(text: string): string {
  const path = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
  writeMarkedSection(path, 'payments', 'npx tsx bench/payments.ts', text)
  return path
}

async function main(): Promise<void> {
  const began = performance.now()
  const rows = [await round('SQLite', scratchSqlite())]
  if (process.env.BENCH_DATABASE_URL) rows.push(await round('PostgreSQL', await scratchPostgres(process.env.BENCH_DATABASE_URL)))
  const text = section(rows, describeMachine(), (performance.now() - began) / 1000)
  console.log(`\n${text}\n`)
  if (process.env.BENCH_WRITE_DOCS !== '0') console.log(`wrote ${writeSection(text)}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
