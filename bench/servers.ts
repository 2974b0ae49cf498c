/**
 * Starting and stopping the baselines (Kassa itself: kassa-serve.ts), each in its own Node process so the load generator
 * never shares their event loop; and the scratch databases they run on.
 */
import { fork, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import type { BareBodies, BareReady, FromServer, KassaReady, PreparedWriteSetup, ToServer } from './protocol.js'

export interface Server<Info> {
  url: string
  info: Info
  /** CPU time the server process has used so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>
  stop(): Promise<void>
}

/**
 * Extra Node flags for Kassa's processes (cluster workers inherit them), e.g.
 * BENCH_KASSA_NODE_OPTIONS="--cpu-prof --cpu-prof-dir=/tmp/prof" to profile exactly what the benchmark measures.
 */
export function kassaNodeFlags(): string[] {
  return (process.env.BENCH_KASSA_NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean)
}

function forkServer(script: string, env: Record<string, string> = {}, nodeFlags: string[] = []): ChildProcess {
  return fork(fileURLToPath(new URL(script, import.meta.url)), [], {
    execArgv: ['--import', 'tsx', ...nodeFlags],
    env: { ...process.env, ...env, NODE_ENV: 'production' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
}

function waitForReady<T extends FromServer>(child: ChildProcess, what: string): Promise<T & { type: 'ready' }> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${what} exited with code ${code} before it was ready`))
    child.once('exit', onExit)
    child.once('message', (message: FromServer) => {
      child.off('exit', onExit)
      if (message.type === 'ready') resolve(message as T & { type: 'ready' })
      else reject(new Error(`${what} failed to start:\n${message.type === 'error' ? message.message : message.type}`))
    })
  })
}

function cpuProbe(child: ChildProcess): () => Promise<number> {
  return () =>
    new Promise((resolve, reject) => {
      const onMessage = (message: FromServer) => {
        if (message.type !== 'cpu') return
        child.off('message', onMessage)
        resolve(message.micros)
      }
      child.on('message', onMessage)
      child.send({ type: 'cpu' } satisfies ToServer, (error) => {
        if (error) reject(error)
      })
    })
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      child.send({ type: 'stop' } satisfies ToServer)
    })
}

/**
 * Kassa's `buildApp` in a process of its own (kassa-server.ts), for benchmarks that need it without its payment worker
 * (`paymentWorker: false`: no submission, no sandbox bank steps); the others run `kassa serve` (kassa-serve.ts).
 */
export async function startKassa(databaseUrl: string, options: { paymentWorker?: boolean } = {}): Promise<Server<KassaReady>> {
  const env = { BENCH_KASSA_DATABASE_URL: databaseUrl, ...(options.paymentWorker === false ? { BENCH_KASSA_PAYMENT_WORKER: 'off' } : {}) }
  const child = forkServer('./kassa-server.ts', env, kassaNodeFlags())
  const info = await waitForReady<KassaReady>(child, 'Kassa')
  return { url: `http://127.0.0.1:${info.port}`, info, cpuMicros: cpuProbe(child), stop: stopper(child) }
}

/** A baseline server (`script`), ready once it has the message it needs. */
async function startBaseline(script: string, what: string, message: ToServer): Promise<Server<BareReady>> {
  const child = forkServer(script)
  const ready = waitForReady<BareReady>(child, what)
  child.send(message)
  const info = await ready
  return { url: `http://127.0.0.1:${info.port}`, info, cpuMicros: cpuProbe(child), stop: stopper(child) }
}

export function startBare(bodies: BareBodies): Promise<Server<BareReady>> {
  return startBaseline('./bare-server.ts', 'the bare server', { type: 'bodies', bodies })
}

/** The prepared-statement floor for writes (prepared-write-server.ts) on a database Kassa seeded. */
export function startPreparedWrite(setup: PreparedWriteSetup): Promise<Server<BareReady>> {
  return startBaseline('./prepared-write-server.ts', 'the prepared-statement server', { type: 'prepared', setup })
}

/** A fresh, empty database for one Kassa run, and how to get rid of it afterwards. */
export interface ScratchDatabase {
  url: string
  /** What the report calls it: "SQLite (temp file)" or "PostgreSQL (host/…)". */
  label: string
  /**
   * Brings the database to rest before the next server is measured on it: on PostgreSQL VACUUM ANALYZE, so the
   * autovacuum of the rows the previous server wrote does not run during the next one's measurement (on 2 CPUs it
   * took a share from whichever line came next); nothing on SQLite, whose servers checkpoint their own log.
   */
  settle(): Promise<void>
  destroy(): Promise<void>
}

export function scratchSqlite(): ScratchDatabase {
  const directory = mkdtempSync(join(tmpdir(), 'kassa-bench-'))
  return {
    url: `sqlite:${join(directory, 'kassa.sqlite')}`,
    label: 'SQLite (file in a temp dir, WAL)',
    settle: async () => undefined,
    destroy: async () => rmSync(directory, { recursive: true, force: true }),
  }
}

async function adminQuery(adminUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** A new database on the server of `adminUrl` (which must allow CREATE DATABASE), dropped afterwards. */
export async function scratchPostgres(adminUrl: string): Promise<ScratchDatabase> {
  const name = `kassa_bench_${randomBytes(6).toString('hex')}`
  await adminQuery(adminUrl, `create database ${name}`)
  const target = new URL(adminUrl)
  target.pathname = `/${name}`
  return {
    url: target.toString(),
    label: `PostgreSQL (${target.host}, fresh database)`,
    settle: () => adminQuery(target.toString(), 'vacuum analyze'),
    destroy: () => adminQuery(adminUrl, `drop database if exists ${name} with (force)`),
  }
}
