import { createReadStream, createWriteStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAX_PLAN_BYTES, MAX_STATEMENT_ENTRIES, STATEMENT_BODY_LIMIT, STATEMENT_MEMORY_BUDGET } from '../../src/financial-data/statements/index.js'
import { camt053Chunks, planFillingCamt053Chunks, type PlanFillingOptions } from '../fixtures/camt/generate-camt053.js'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth, startTestApp, type TestApp } from '../support/test-app.js'
import { sandboxAccounts } from '../financial-data/statements-helpers.js'

/**
 * Issue 9: one upload of ~200 MB exhausted the heap, 16 MB froze every other request for 13 s. The
 * real server, listening on 127.0.0.1, imports large generated statements streamed from disk while
 * other requests are sent every 50 ms and the process's memory is sampled: the increase stays within
 * STATEMENT_MEMORY_BUDGET and the other requests keep being answered.
 */

const MIB = 1024 * 1024
const PROBE_INTERVAL_MS = 50
/**
 * Bounds on the other requests' latency, counted from when each was due (a stalled event loop delays
 * the sending too). The statement's own work yields at least every PARSE_SLICE_CHARS and BOOKING_BATCH;
 * the one long stall left is SQLite's COMMIT of all the file's transactions and their events, which also
 * checkpoints the WAL on the event loop's thread: 0.6–1.7 s measured on a busy 2-CPU machine.
 */
const P99_BOUND_MS = 2_000
const MAX_BOUND_MS = 4_000

let t: TestApp
let base: string
let directory: string
let iban: string
let counterpartyId: string

beforeAll(async () => {
  // Grants are cached for the whole run: a grant is re-read on the writing connection, which an import's
  // transaction holds on SQLite, so an authenticated request whose grant expired mid-import waits for it.
  t = await startTestApp({ webhooks: { startWorker: false }, paymentWorkerIntervalMilliseconds: false, authCacheMilliseconds: 60 * 60_000 })
  await t.app.listen({ host: '127.0.0.1', port: 0 })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  iban = (await sandboxAccounts(t)).operating.iban
  counterpartyId = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json().id
  directory = mkdtempSync(join(tmpdir(), 'kassa-large-statements-'))
})
afterAll(async () => {
  await t.close()
  rmSync(directory, { recursive: true, force: true })
})

/** A generated statement written to disk as it is generated: never held whole. */
async function statementFile(entries: number, prefix: string): Promise<string> {
  const path = join(directory, `${prefix}.xml`)
  await pipeline(Readable.from(camt053Chunks({ iban, entries, referencePrefix: prefix })), createWriteStream(path))
  return path
}

/** The kernel's record of the process's peak resident memory (Linux), reset to the current size. */
function peakResidentBytes(reset = false): number | undefined {
  try {
    if (reset) writeFileSync('/proc/self/clear_refs', '5')
    const kilobytes = /VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024
  } catch {
    return undefined
  }
}

interface Measured {
  status: number
  body: string
  seconds: number
  /** Peak resident memory above the level before the upload, sampled and from the kernel's peak. */
  memoryIncrease: number
  heapIncrease: number
  latencies: Record<'healthz' | 'authenticated', { count: number; p50: number; p99: number; max: number; failed: number }>
}

function summary(values: number[], failed: number) {
  const sorted = [...values].sort((a, b) => a - b)
  const at = (fraction: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? 0)
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: Math.round(sorted.at(-1) ?? 0), failed }
}

/** Uploads `body` while probing other requests every PROBE_INTERVAL_MS and sampling memory. */
async function measureUpload(body: Readable): Promise<Measured> {
  const rssBefore = process.memoryUsage().rss
  const heapBefore = process.memoryUsage().heapUsed
  peakResidentBytes(true)
  let rssPeak = rssBefore
  let heapPeak = heapBefore
  const sampler = setInterval(() => {
    const { rss, heapUsed } = process.memoryUsage()
    rssPeak = Math.max(rssPeak, rss)
    heapPeak = Math.max(heapPeak, heapUsed)
  }, PROBE_INTERVAL_MS)

  const probes = { healthz: { url: '/healthz', headers: {} }, authenticated: { url: `/payments/v2/counterparties/${counterpartyId}`, headers: { authorization: basicAuth(t.owner) } } }
  const latencies = { healthz: [] as number[], authenticated: [] as number[] }
  const failures = { healthz: 0, authenticated: 0 }
  const inFlight: Promise<void>[] = []
  let probing = true
  const started = performance.now()
  // Probes are due every PROBE_INTERVAL_MS and each one's latency counts from when it was due: after a stall
  // of the event loop, every probe that fell due meanwhile is sent at once, late by the stall.
  const send = (name: keyof typeof probes, due: number) =>
    fetch(base + probes[name].url, { headers: probes[name].headers }).then(
      async (response) => {
        await response.arrayBuffer()
        if (response.status !== 200) failures[name] += 1
        latencies[name].push(performance.now() - due)
      },
      () => {
        failures[name] += 1
      },
    )
  let due = started
  const probe = () => {
    if (!probing) return
    for (; due <= performance.now(); due += PROBE_INTERVAL_MS) inFlight.push(send('healthz', due), send('authenticated', due))
    setTimeout(probe, due - performance.now())
  }
  probe()

  const response = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const upload = request(`${base}/financial-data/v2/statements`, { method: 'POST', headers: { authorization: basicAuth(t.owner), 'content-type': 'application/xml' } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode!, body: text }))
    })
    // After an early answer (a 413) the server closes the connection while the file is still being sent.
    upload.on('error', (error) => setTimeout(() => reject(error), 1_000))
    body.on('error', () => undefined)
    body.pipe(upload)
  })
  const seconds = (performance.now() - started) / 1000
  probing = false
  clearInterval(sampler)
  await Promise.all(inFlight)
  const kernelPeak = peakResidentBytes() ?? 0
  return {
    ...response,
    seconds,
    memoryIncrease: Math.max(rssPeak, kernelPeak) - rssBefore,
    heapIncrease: heapPeak - heapBefore,
    latencies: { healthz: summary(latencies.healthz, failures.healthz), authenticated: summary(latencies.authenticated, failures.authenticated) },
  }
}

function report(name: string, measured: Measured): void {
  const { body: _body, ...figures } = measured
  process.stdout.write(`\n${name}: ${JSON.stringify({ ...figures, memoryIncreaseMiB: Math.round(figures.memoryIncrease / MIB), heapIncreaseMiB: Math.round(figures.heapIncrease / MIB) })}\n`)
}

function expectAnsweredMeanwhile(measured: Measured): void {
  for (const latency of Object.values(measured.latencies)) {
    expect(latency.failed).toBe(0)
    expect(latency.count).toBeGreaterThan((measured.seconds * 1000) / PROBE_INTERVAL_MS / 2)
    expect(latency.p99).toBeLessThan(P99_BOUND_MS)
    expect(latency.max).toBeLessThan(MAX_BOUND_MS)
  }
}

async function expectAlive(): Promise<void> {
  const response = await fetch(`${base}/healthz`)
  expect(response.status).toBe(200)
}

describe('large statement uploads', () => {
  it(`imports ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries (the most a file may hold) within the memory budget, answering other requests meanwhile`, async () => {
    const path = await statementFile(MAX_STATEMENT_ENTRIES, 'LARGEST')
    const measured = await measureUpload(createReadStream(path))
    report(`${MAX_STATEMENT_ENTRIES} entries, ${(statSync(path).size / MIB).toFixed(0)} MiB`, measured)
    expect(measured.status, measured.body.slice(0, 500)).toBe(201)
    // Every 50th entry is a batch of three payments, each booked on its own.
    expect(JSON.parse(measured.body)).toMatchObject({ transactionsBooked: MAX_STATEMENT_ENTRIES + (MAX_STATEMENT_ENTRIES / 50) * 2 })
    expect(measured.memoryIncrease).toBeLessThan(STATEMENT_MEMORY_BUDGET)
    expectAnsweredMeanwhile(measured)
  })

  it('refuses a 100 MiB statement of twice as many entries with a 413, within the memory budget and answering other requests', async () => {
    const entries = 2 * MAX_STATEMENT_ENTRIES
    const path = await statementFile(entries, 'TOOMANY')
    expect(statSync(path).size).toBeGreaterThan(100 * MIB)
    const measured = await measureUpload(createReadStream(path))
    report(`${entries} entries, ${(statSync(path).size / MIB).toFixed(0)} MiB`, measured)
    expect(measured.status).toBe(413)
    expect(JSON.parse(measured.body)).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining(`more than ${MAX_STATEMENT_ENTRIES.toLocaleString('en-US')} entries`) })
    expect(measured.memoryIncrease).toBeLessThan(STATEMENT_MEMORY_BUDGET)
    expectAnsweredMeanwhile(measured)
    await expectAlive()
  })

  // Hostile files far under the entry limit that fill the plan nearly to MAX_PLAN_BYTES: texts of 900,000
  // characters (at most BOOKING_BATCH_CHARACTERS of them in a batch), or 200,000 transactions, twice as many as
  // the largest typical file's.
  it.each<[string, Omit<PlanFillingOptions, 'iban' | 'referencePrefix'>]>([
    ['70 entries with a text of 900,000 characters each', { entries: 70, parts: 1, textLength: 900_000 }],
    ['one entry split into 70 transactions that each repeat its text of 900,000 characters', { entries: 1, parts: 70, textLength: 900_000 }],
    ['2,000 entries split into 200,000 transactions with texts of 150 characters', { entries: 2_000, parts: 100, textLength: 150 }],
  ])(`imports %s (a plan near ${MAX_PLAN_BYTES / MIB} MiB) within the memory budget, answering other requests meanwhile`, async (name, options) => {
    const referencePrefix = `FILL${options.entries}X${options.parts}`
    const path = join(directory, `${referencePrefix}.xml`)
    await pipeline(Readable.from(planFillingCamt053Chunks({ iban, referencePrefix, ...options })), createWriteStream(path))
    const measured = await measureUpload(createReadStream(path))
    report(`${name}, ${(statSync(path).size / MIB).toFixed(0)} MiB`, measured)
    expect(measured.status, measured.body.slice(0, 500)).toBe(201)
    expect(JSON.parse(measured.body)).toMatchObject({ transactionsBooked: options.entries * options.parts })
    expect(measured.memoryIncrease).toBeLessThan(STATEMENT_MEMORY_BUDGET)
    expectAnsweredMeanwhile(measured)
  })

  it(`refuses a statement streamed past ${STATEMENT_BODY_LIMIT / MIB} MiB without a Content-Length with a 413, and lives`, async () => {
    // A valid head and then statement notes (skipped by the reader) until just past the limit.
    const head = '<?xml version="1.0" encoding="UTF-8"?><Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt><Stmt><Id>S</Id>'
    const note = `<AddtlStmtInf>${'x'.repeat(MIB / 2 - 31)}</AddtlStmtInf>`
    const body = Readable.from(
      (function* () {
        yield head
        for (let sent = head.length; sent <= STATEMENT_BODY_LIMIT; sent += note.length) yield note
      })(),
    )
    const measured = await measureUpload(body)
    report(`${STATEMENT_BODY_LIMIT / MIB} MiB + 1 byte`, measured)
    expect(measured.status).toBe(413)
    expect(JSON.parse(measured.body)).toMatchObject({ code: 'payload_too_large', message: expect.stringContaining(`larger than ${STATEMENT_BODY_LIMIT / MIB}.0 MiB`) })
    expect(measured.memoryIncrease).toBeLessThan(STATEMENT_MEMORY_BUDGET)
    await expectAlive()
  })
})
