/**
 * Kassa as an operator runs it: `kassa serve` (with `KASSA_WORKERS=N`, the environment form of `--workers N`, its
 * cluster of N HTTP processes on one port), compiled as `npm start` runs it (`bin/kassa.js` on dist/, built here
 * first: tsx's on-the-fly transform costs about a tenth of a create's CPU, which operators never pay), on a
 * database the runner set up with a sandbox organization first (so serve seeds none). Its CPU time is the whole
 * process tree's — the primary and every worker — read from /proc, since the workers are not ours to ask over IPC.
 * The checkout is this one unless another is named: Kassa at an earlier commit (as-filed.ts), built and run alike.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { kassaNodeFlags, type Server } from './servers.js'

/** The root of this checkout, whose `dist/` the benchmarks run unless told of another. */
export const THIS_CHECKOUT = fileURLToPath(new URL('..', import.meta.url))

/** The sandbox organization the benchmark works in, and its Owner's access key. */
export interface KassaOwner {
  organizationId: string
  accessKey: string
  secret: string
}

/** Migrates the empty database at `url` and creates the benchmark's sandbox organization, with the checkout's own code. */
export async function prepareKassaDatabase(url: string, checkout = THIS_CHECKOUT): Promise<KassaOwner> {
  buildServer(checkout)
  const compiled = (path: string) => pathToFileURL(join(checkout, 'dist', 'src', path)).href
  const { openDatabase } = (await import(compiled('db/database.js'))) as typeof import('../src/db/database.js')
  const { createSandboxOrganization } = (await import(compiled('organizations/organization.service.js'))) as typeof import('../src/organizations/organization.service.js')
  const database = openDatabase(url)
  try {
    await database.migrate()
    const { organizationId, accessKey, secret } = await createSandboxOrganization(database, 'Benchmark organization')
    return { organizationId, accessKey, secret }
  } finally {
    await database.close()
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (address !== null && typeof address !== 'string' ? resolve(address.port) : reject(new Error('no TCP port'))))
    })
  })
}

const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim())

/** pid → [parent pid, user + system ticks] of every process, from /proc/PID/stat (proc(5): fields 4, 14 and 15). */
function processTable(): Map<number, [number, number]> {
  const table = new Map<number, [number, number]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // The command name (field 2) may hold spaces and parentheses: the fields after it follow the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      table.set(Number(entry), [Number(fields[1]), Number(fields[11]) + Number(fields[12])])
    } catch {
      // The process ended between readdir and read.
    }
  }
  return table
}

/** CPU time (user + system, µs) used so far by `pid` and its descendants that are still running. */
export function treeCpuMicros(pid: number): number {
  const table = processTable()
  const inTree = new Set([pid])
  let ticks = 0
  // Parents have lower pids than their children unless pids wrapped: loop until no process joins the tree.
  for (let grew = true; grew; ) {
    grew = false
    for (const [child, [parent]] of table) {
      if (inTree.has(child) || !inTree.has(parent)) continue
      inTree.add(child)
      grew = true
    }
  }
  for (const member of inTree) ticks += table.get(member)?.[1] ?? 0
  return (ticks / TICKS_PER_SECOND) * 1_000_000
}

async function waitUntilReady(url: string, child: ChildProcess): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (child.exitCode !== null) throw new Error(`kassa serve exited with code ${child.exitCode} before it was ready`)
    const ready = await fetch(`${url}/readyz`).then((response) => response.ok, () => false)
    if (ready) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('kassa serve was not ready within a minute')
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      // Graceful shutdown (SIGTERM: in-flight requests finish); a tree still there after 15 s is killed.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      child.once('exit', () => {
        clearTimeout(timer)
        resolve()
      })
      child.kill('SIGTERM')
    })
}

const built = new Set<string>()

/** Compiles the checkout's server into its dist/ (incremental: a second or two when it is up to date), once per run. */
function buildServer(checkout: string): void {
  if (built.has(checkout)) return
  const tsc = join(checkout, 'node_modules', 'typescript', 'bin', 'tsc')
  execFileSync(process.execPath, [tsc, '-p', join(checkout, 'tsconfig.build.json')], { stdio: 'inherit' })
  built.add(checkout)
}

/** `kassa serve` with `workers` HTTP processes on the prepared database at `url`, rate limit far above the load, logging off. */
export async function startKassaServe(url: string, workers: number, owner: KassaOwner, checkout = THIS_CHECKOUT): Promise<Server<KassaOwner>> {
  buildServer(checkout)
  const port = await freePort()
  const child = spawn(process.execPath, [...kassaNodeFlags(), join(checkout, 'bin', 'kassa.js'), 'serve'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: url,
      HOST: '127.0.0.1',
      PORT: String(port),
      KASSA_WORKERS: String(workers),
      LOG_LEVEL: 'silent',
      KASSA_RATE_LIMIT_PER_MINUTE: '5000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const base = `http://127.0.0.1:${port}`
  await waitUntilReady(base, child).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
  return {
    url: base,
    info: owner,
    cpuMicros: async () => treeCpuMicros(child.pid!),
    stop: stopper(child),
  }
}
