/**
 * `npx tsx bench/transactions.ts`: issue 3's benchmark. Listing transactions deep in a large account,
 * and importing a large camt.053.
 *
 * Kassa runs as `buildApp` wires it, in its own process (bench/kassa-server.ts), payment worker off,
 * with a fresh sandbox organization. This process then bulk-inserts BENCH_TRANSACTIONS (1,000,000)
 * booked transactions on the organization's Payroll account straight into the database (multi-row
 * INSERTs, 100,000 rows per transaction; rows shaped like bookEntries' with a unique entry reference,
 * booking dates spread at random over four years, so the (date, id) order is not the insertion order).
 * Over HTTP with the owner key it then measures
 *   GET /financial-data/v2/transactions?accountId=…&limit=100          (page 1)
 *   GET /financial-data/v2/transactions?accountId=…&limit=100&token=…  (page 1,000: its token found by
 *                                                                       walking the nextToken chain)
 * as a sequential loop (one request at a time, so the latency is the query's, not queueing), and
 * reports p50/p99, req/s, Kassa's CPU per request and the ratio deep/first (target ≤ 1.5). Finally it
 * imports a generated camt.053 of BENCH_IMPORT_ENTRIES (100,000) entries on the Operating account
 * through POST /financial-data/v2/statements, then the same file again (every entry a duplicate).
 *
 * SQLite always (a temporary file); PostgreSQL too when BENCH_DATABASE_URL names a server (a scratch
 * database is created and dropped). Knobs: BENCH_TRANSACTIONS, BENCH_REQUESTS (300 per page),
 * BENCH_IMPORT_ENTRIES, BENCH_WRITE_DOCS=0 to leave docs/benchmarks.md alone.
 */
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { CompiledQuery } from 'kysely'
import { openDatabase, type Database } from '../src/db/database.js'
import { keysetAfter } from '../src/http/pagination.js'
import { newId } from '../src/shared/ids.js'
import { generateCamt053 } from '../test/fixtures/camt/generate-camt053.js'
import { describeMachine, type Machine } from './machine.js'
import { writeMarkedSection } from './report.js'
import { basicAuth } from './seed.js'
import { scratchPostgres, scratchSqlite, startKassa, type ScratchDatabase, type Server } from './servers.js'
import type { KassaReady } from './protocol.js'

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer`)
  return value
}

const TRANSACTIONS = numberFromEnv('BENCH_TRANSACTIONS', 1_000_000)
const REQUESTS = numberFromEnv('BENCH_REQUESTS', 300)
const IMPORT_ENTRIES = numberFromEnv('BENCH_IMPORT_ENTRIES', 100_000)
const LIMIT = 100
const DEEP_PAGE = 1_000
const TARGET = 1.5
const LIST = '/financial-data/v2/transactions'

function log(message: string): void {
  process.stderr.write(`${message}\n`)
}

async function call(url: string, init: RequestInit, expectStatus: number): Promise<unknown> {
  const response = await fetch(url, init)
  const text = await response.text()
  if (response.status !== expectStatus) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 500)}`)
  return JSON.parse(text) as unknown
}

interface Account {
  id: string
  name: string
  identifiers: Array<{ type: string; number: string }>
}

// ---------------------------------------------------------------------------------------------
// Bulk insert

const COLUMNS = [
  'id', 'organization_id', 'account_id', 'amount', 'currency', 'date', 'value_date', 'description', 'reference',
  'end_to_end_id', 'mandate_reference', 'counterparty', 'bank_transaction_code', 'reconciliation_status',
  'attached_transactables', 'returned', 'return_reason', 'entry_reference', 'metadata', 'version', 'created', 'updated',
] as const
/** Rows per INSERT: 22 parameters each, below SQLite's 32,766 and PostgreSQL's 65,535. */
const ROWS_PER_INSERT = 1_000
const ROWS_PER_TRANSACTION = 100_000
const FIRST_DAY = Date.UTC(2022, 0, 1)
const DAYS = 4 * 365

/** The SQL of one multi-row INSERT, built once: the same text every time, so SQLite's statement cache reuses it. */
function insertSql(dialect: Database['dialect'], rows: number): string {
  let n = 0
  const placeholder = () => (dialect === 'postgres' ? `$${++n}` : '?')
  const tuples = Array.from({ length: rows }, () => `(${COLUMNS.map(placeholder).join(', ')})`)
  return `insert into transactions (${COLUMNS.join(', ')}) values ${tuples.join(', ')}`
}

/** Deterministic pseudo-random numbers (mulberry32), so every run inserts the same rows. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state + 0x6d2b79f5) | 0
    let t = Math.imul(state ^ (state >>> 15), 1 | state)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SHAPES = [
  { description: 'Salary', code: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' }, sign: -1, name: 'Employee' },
  { description: 'Card settlement', code: { domain: 'PMNT', family: 'CCRD', subfamily: 'POSD' }, sign: 1, name: 'Card acquirer' },
  { description: 'Supplier payment', code: { domain: 'PMNT', family: 'ICDT', subfamily: 'ESCT' }, sign: -1, name: 'Supplier' },
  { description: 'Customer payment', code: { domain: 'PMNT', family: 'RCDT', subfamily: 'ESCT' }, sign: 1, name: 'Customer' },
  { description: 'Account fee', code: { domain: 'ACMT', family: 'MDOP', subfamily: 'CHRG' }, sign: -1, name: null },
] as const

function rowValues(n: number, organizationId: string, accountId: string, next: () => number, now: string): unknown[] {
  const shape = SHAPES[n % SHAPES.length]!
  const date = new Date(FIRST_DAY + Math.floor(next() * DAYS) * 86_400_000).toISOString().slice(0, 10)
  const amount = shape.sign * (100 + Math.floor(next() * 500_000))
  const counterparty =
    shape.name === null ? null : JSON.stringify({
          partyType: 'COMPANY',
          name: `${shape.name} ${n % 997}`,
          account: { market: 'NL', identifiers: [{ market: 'NL', type: 'IBAN', number: 'NL91ABNA0417164300' }] },
        })
  return [
    newId(), organizationId, accountId, amount, 'EUR', date, date, `${shape.description} ${n}`, `RF18${String(n).padStart(12, '0')}`,
    `E2E-BENCH-${n}`, null, counterparty, JSON.stringify(shape.code), 'NOT_RECONCILED',
    '[]', 0, null, `BENCH-TX-${String(n).padStart(9, '0')}`, '{}', 1, now, now,
  ]
}

/** Inserts `count` transactions on the account; returns the seconds it took. */
async function bulkInsert(databaseUrl: string, organizationId: string, accountId: string, count: number): Promise<number> {
  const database = openDatabase(databaseUrl)
  const started = performance.now()
  try {
    const next = random(42)
    const now = new Date().toISOString()
    const full = insertSql(database.dialect, ROWS_PER_INSERT)
    for (let first = 0; first < count; first += ROWS_PER_TRANSACTION) {
      const last = Math.min(first + ROWS_PER_TRANSACTION, count)
      await database.transaction(async (trx) => {
        for (let start = first; start < last; start += ROWS_PER_INSERT) {
          const rows = Math.min(ROWS_PER_INSERT, last - start)
          const parameters: unknown[] = []
          for (let n = start; n < start + rows; n += 1) parameters.push(...rowValues(n, organizationId, accountId, next, now))
          const text = rows === ROWS_PER_INSERT ? full : insertSql(database.dialect, rows)
          await trx.executeQuery(CompiledQuery.raw(text, parameters))
        }
      })
      log(`  ${last.toLocaleString('en-US')} rows (${((performance.now() - started) / 1000).toFixed(0)} s)`)
    }
    return (performance.now() - started) / 1000
  } finally {
    await database.close()
  }
}

/**
 * How the database plans the deep page's query: the same Kysely query as transactionRepo.list with an
 * accountId filter and an `after` cursor (keysetAfter's row-value comparison), compiled, EXPLAINed.
 */
async function explainDeepPage(databaseUrl: string, organizationId: string, accountId: string, after: [string, string]): Promise<string> {
  const database = openDatabase(databaseUrl)
  try {
    const compiled = database.db
      .selectFrom('transactions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('account_id', '=', accountId)
      .where(keysetAfter(['date', 'id'], 'desc', after))
      .orderBy('date', 'desc')
      .orderBy('id', 'desc')
      .limit(LIMIT + 1)
      .compile()
    const prefix = database.dialect === 'postgres' ? 'explain (analyze, buffers) ' : 'explain query plan '
    const result = await database.db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(prefix + compiled.sql, [...compiled.parameters]))
    const plan = result.rows.map((row) => String(row['QUERY PLAN'] ?? row.detail ?? JSON.stringify(row))).join('\n')
    return `${compiled.sql}\n\n${plan}`
  } finally {
    await database.close()
  }
}

// ---------------------------------------------------------------------------------------------
// Measuring

interface Timing {
  requests: number
  /** Milliseconds. */
  p50: number
  p99: number
  requestsPerSecond: number
  /** Kassa's CPU (user + system) per request, µs. */
  cpuPerRequest: number
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!
}

/** `count` requests one after another (after a tenth as many unmeasured), every answer checked for 200 and 100 items. */
async function timeSequential(kassa: Server<KassaReady>, url: string, authorization: string, count: number): Promise<Timing> {
  const once = async () => {
    const response = await fetch(url, { headers: { authorization } })
    const body = (await response.json()) as { items?: unknown[] }
    if (response.status !== 200 || body.items?.length !== LIMIT) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body).slice(0, 300)}`)
  }
  for (let n = 0; n < Math.ceil(count / 10); n += 1) await once()
  const latencies: number[] = []
  const cpuBefore = await kassa.cpuMicros()
  const started = performance.now()
  for (let n = 0; n < count; n += 1) {
    const before = performance.now()
    await once()
    latencies.push(performance.now() - before)
  }
  const seconds = (performance.now() - started) / 1000
  const cpu = (await kassa.cpuMicros()) - cpuBefore
  latencies.sort((a, b) => a - b)
  return { requests: count, p50: percentile(latencies, 50), p99: percentile(latencies, 99), requestsPerSecond: count / seconds, cpuPerRequest: cpu / count }
}

interface ImportResult {
  entries: number
  /** Transactions booked: more than entries, as batched entries book one per transaction detail. */
  transactions: number
  megabytes: number
  seconds: number
  /** Kassa's CPU seconds (PostgreSQL's own work not counted). */
  cpuSeconds: number
  againSeconds: number
  againCpuSeconds: number
}

async function timeImport(kassa: Server<KassaReady>, authorization: string, iban: string): Promise<ImportResult> {
  const xml = generateCamt053({ iban, entries: IMPORT_ENTRIES, referencePrefix: 'BENCH' })
  const post = async (): Promise<{ seconds: number; cpuSeconds: number; body: Record<string, number> }> => {
    const cpuBefore = await kassa.cpuMicros()
    const started = performance.now()
    const body = (await call(
      `${kassa.url}/financial-data/v2/statements`,
      { method: 'POST', headers: { authorization, 'content-type': 'application/xml' }, body: xml },
      201,
    )) as Record<string, number>
    const seconds = (performance.now() - started) / 1000
    return { seconds, cpuSeconds: ((await kassa.cpuMicros()) - cpuBefore) / 1e6, body }
  }
  const first = await post()
  // Every 50th entry is a batch of three transaction details, each booked as its own transaction.
  const booked = first.body.transactionsBooked ?? 0
  if (booked < IMPORT_ENTRIES) throw new Error(`import booked ${booked} transactions of ${IMPORT_ENTRIES} entries: ${JSON.stringify(first.body)}`)
  const again = await post()
  if (again.body.transactionsAlreadyPresent !== booked) throw new Error(`re-import: ${JSON.stringify(again.body)}`)
  return {
    entries: IMPORT_ENTRIES,
    transactions: booked,
    megabytes: Buffer.byteLength(xml) / 1024 / 1024,
    seconds: first.seconds,
    cpuSeconds: first.cpuSeconds,
    againSeconds: again.seconds,
    againCpuSeconds: again.cpuSeconds,
  }
}

interface Row {
  backend: string
  insertSeconds: number
  walkSeconds: number
  first: Timing
  deep: Timing
  plan: string
  imported: ImportResult
  load: number
}

async function round(label: string, scratch: ScratchDatabase): Promise<Row> {
  const kassa = await startKassa(scratch.url, { paymentWorker: false })
  try {
    const authorization = basicAuth(kassa.info.accessKey, kassa.info.secret)
    const accounts = ((await call(`${kassa.url}/financial-data/v2/accounts`, { headers: { authorization } }, 200)) as { items: Account[] }).items
    const byName = (name: string) => {
      const account = accounts.find((item) => item.name === name)
      if (!account) throw new Error(`no sandbox account ${name}`)
      return account
    }
    const large = byName('Payroll account')
    const operating = byName('Operating account')

    log(`[${label}] inserting ${TRANSACTIONS.toLocaleString('en-US')} transactions on ${large.name}`)
    const insertSeconds = await bulkInsert(scratch.url, kassa.info.organizationId, large.id, TRANSACTIONS)

    const pageOne = `${kassa.url}${LIST}?accountId=${large.id}&limit=${LIMIT}`
    log(`[${label}] walking the nextToken chain to page ${DEEP_PAGE}`)
    const walkStarted = performance.now()
    let url = pageOne
    let lastItem: { id: string; date: string } | undefined
    for (let page = 1; page < DEEP_PAGE; page += 1) {
      const body = (await call(url, { headers: { authorization } }, 200)) as { items: Array<{ id: string; date: string }>; nextToken?: string }
      if (!body.nextToken) throw new Error(`page ${page} has no nextToken`)
      // Each page must start strictly after the previous one ended, newest first: proof the token was applied.
      const firstItem = body.items[0]!
      if (lastItem && !(firstItem.date < lastItem.date || (firstItem.date === lastItem.date && firstItem.id < lastItem.id))) {
        throw new Error(`page ${page} does not continue page ${page - 1}`)
      }
      lastItem = body.items.at(-1)
      url = `${pageOne}&token=${encodeURIComponent(body.nextToken)}`
    }
    const walkSeconds = (performance.now() - walkStarted) / 1000
    const deepUrl = url

    log(`[${label}] page 1: ${REQUESTS} sequential requests`)
    const first = await timeSequential(kassa, pageOne, authorization, REQUESTS)
    log(`[${label}] page ${DEEP_PAGE}: ${REQUESTS} sequential requests`)
    const deep = await timeSequential(kassa, deepUrl, authorization, REQUESTS)
    const load = loadavg()[0]!
    log(`[${label}] p50 ${first.p50.toFixed(2)} ms vs ${deep.p50.toFixed(2)} ms: ${(deep.p50 / first.p50).toFixed(2)}×`)
    const plan = await explainDeepPage(scratch.url, kassa.info.organizationId, large.id, [lastItem!.date, lastItem!.id])

    log(`[${label}] importing a ${IMPORT_ENTRIES.toLocaleString('en-US')}-entry camt.053`)
    const operatingIban = operating.identifiers.find((identifier) => identifier.type === 'IBAN')!.number
    const imported = await timeImport(kassa, authorization, operatingIban)
    log(`[${label}] import: ${Math.round(imported.entries / imported.seconds)} entries/s`)
    return { backend: label, insertSeconds, walkSeconds, first, deep, plan, imported, load }
  } finally {
    await kassa.stop()
    await scratch.destroy()
  }
}

// ---------------------------------------------------------------------------------------------
// Report

const SECTION = 'financial-data'
const ms = (value: number) => `${value.toFixed(1)} ms`
const whole = (value: number) => Math.round(value).toLocaleString('en-US')

function section(rows: Row[], machine: Machine, seconds: number, command: string): string {
  const line = (values: string[]) => `| ${values.join(' | ')} |`
  return [
    '## Financial data: deep transaction pages and camt.053 import (issue 3)',
    '',
    `Run \`${command}\` on ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} (${Math.round(seconds)} s in all), commit ${machine.commit}.`,
    '',
    `- Machine: ${machine.cpus} CPUs (${machine.cpuModel}), ${machine.memoryGiB} GiB memory, ${machine.os}; Node ${machine.node}, Fastify ${machine.fastify}`,
    '- Kassa: `buildApp` in its own Node process, logLevel silent, payment worker off, HTTP Basic auth of a sandbox owner key',
    `- Data: ${TRANSACTIONS.toLocaleString('en-US')} booked transactions on one account of the sandbox organization, inserted straight into the`,
    '  database (multi-row INSERTs, 100,000 rows per transaction) with every column filled as `bookEntries` fills it, a unique entry',
    '  reference each, booking dates spread at random over 2022–2025 (about 685 a day); no ANALYZE',
    `- Lists: \`GET ${LIST}?accountId=…&limit=${LIMIT}\`, page 1 and page ${DEEP_PAGE.toLocaleString('en-US')} (its \`token\` found by`,
    `  following nextToken from page 1), ${REQUESTS} requests each one after another after ${Math.ceil(REQUESTS / 10)} unmeasured; latency as the client sees it;`,
    '  CPU/req is the Kassa process\'s CPU time (user + system) per request (PostgreSQL\'s own work not counted)',
    `- Import: a generated camt.053.001.08 of ${IMPORT_ENTRIES.toLocaleString('en-US')} entries (test/fixtures/camt/generate-camt053.ts) posted to another account`,
    '  of the organization through `POST /financial-data/v2/statements`, one request; wall time as the client sees it, CPU of the',
    '  Kassa process; then the same file again (every entry already present, nothing written)',
    '',
    line(['Backend', 'Page 1 p50', 'p99', 'req/s', 'CPU/req', `Page ${DEEP_PAGE.toLocaleString('en-US')} p50`, 'p99', 'req/s', 'CPU/req', 'Deep/first (p50)', 'Load avg']),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...rows.map((row) =>
      line([
        row.backend,
        ms(row.first.p50),
        ms(row.first.p99),
        whole(row.first.requestsPerSecond),
        `${whole(row.first.cpuPerRequest)} µs`,
        ms(row.deep.p50),
        ms(row.deep.p99),
        whole(row.deep.requestsPerSecond),
        `${whole(row.deep.cpuPerRequest)} µs`,
        `${(row.deep.p50 / row.first.p50).toFixed(2)}×`,
        row.load.toFixed(1),
      ]),
    ),
    '',
    line(['Backend', 'camt.053 entries', 'Transactions booked', 'Size', 'Wall', 'Entries/s', 'Kassa CPU', 'Re-import (duplicates) wall', 'CPU']),
    line(['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    ...rows.map((row) =>
      line([
        row.backend,
        whole(row.imported.entries),
        whole(row.imported.transactions),
        `${row.imported.megabytes.toFixed(1)} MiB`,
        `${row.imported.seconds.toFixed(1)} s`,
        whole(row.imported.entries / row.imported.seconds),
        `${row.imported.cpuSeconds.toFixed(1)} s`,
        `${row.imported.againSeconds.toFixed(1)} s`,
        `${row.imported.againCpuSeconds.toFixed(1)} s`,
      ]),
    ),
    '',
    `Setting up: ${rows.map((row) => `${row.backend} inserted the rows in ${Math.round(row.insertSeconds)} s and walked ${DEEP_PAGE - 1} pages in ${Math.round(row.walkSeconds)} s`).join('; ')}.`,
    '',
    ...rows.flatMap((row) => [`Plan of the page-${DEEP_PAGE} query on ${row.backend}:`, '', '```', row.plan, '```', '']),
    ...rows.map((row) => {
      const ratio = row.deep.p50 / row.first.p50
      return `**Target:** page ${DEEP_PAGE.toLocaleString('en-US')} within ${TARGET}× of page 1 (${row.backend}): ${ratio.toFixed(2)}× — ${ratio <= TARGET ? 'met' : 'NOT met'}.`
    }),
  ].join('\n')
}

async function main(): Promise<void> {
  const began = performance.now()
  const rows = [await round('SQLite', scratchSqlite())]
  const postgresUrl = process.env.BENCH_DATABASE_URL
  if (postgresUrl) rows.push(await round('PostgreSQL', await scratchPostgres(postgresUrl)))
  const command = `${postgresUrl ? 'BENCH_DATABASE_URL=postgres://… ' : ''}npx tsx bench/transactions.ts`
  const text = section(rows, describeMachine(), (performance.now() - began) / 1000, command)
  console.log(`\n${text}\n`)
  if (process.env.BENCH_WRITE_DOCS !== '0') {
    const path = fileURLToPath(new URL('../docs/benchmarks.md', import.meta.url))
    writeMarkedSection(path, SECTION, 'npx tsx bench/transactions.ts', text)
    console.log(`wrote ${path}`)
  }
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
