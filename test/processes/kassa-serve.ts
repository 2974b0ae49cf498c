/**
 * `kassa serve` as an operator runs it — the CLI's own code (src/cli/main.ts through tsx, so no build is needed),
 * in a child process of its own, `--workers N` and all — with its log lines read as they come.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import net from 'node:net'
import { childEnv, ROOT, watch, type Run } from '../cli/cli-process.js'

export interface LogLine {
  level: number
  pid: number
  msg: string
  [field: string]: unknown
}

/** pino's level numbers. */
export const LEVEL = { debug: 20, info: 30, warn: 40, error: 50 } as const

export interface KassaServe {
  child: ChildProcess
  port: number
  /** The sandbox Owner's key, as the first start printed it. */
  owner: { accessKey: string; secret: string }
  /** Everything it printed so far. */
  stdout(): string
  /** Every JSON log line of every process so far (the primary's and the workers'). */
  logs(): LogLine[]
  /** Resolves with the first log line (from now on or already printed) that `match` accepts; fails after `timeoutMs`. */
  logged(match: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>
  /** Its exit code and output once it ended. */
  done: Promise<Run>
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
    server.once('error', reject)
  })
}

/** `kassa serve --workers <workers>` on `port`, logging at info unless `env` says otherwise. */
export function spawnKassaServe(databaseUrl: string, workers: number, port: number, env: Record<string, string> = {}): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'serve', '--workers', String(workers)], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env }),
  })
}

export function logLinesIn(output: string): LogLine[] {
  return output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogLine)
}

/**
 * `kassa serve --workers <workers>` on an empty database at `databaseUrl`; resolves once every worker serves
 * (the primary logs each), which on a busy 2-core machine may take a while: each worker compiles the app anew.
 */
export async function startKassaServe(databaseUrl: string, workers: number, env: Record<string, string> = {}): Promise<KassaServe> {
  const port = await freePort()
  const child = spawnKassaServe(databaseUrl, workers, port, env)
  const watched = watch(child)
  let ended: Run | undefined
  void watched.done.then((run) => (ended = run))
  const logs = () => logLinesIn(watched.stdout())

  const logged = async (match: (line: LogLine) => boolean, what: string, timeoutMs = 120_000): Promise<LogLine> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = logs().find(match)
      if (found) return found
      if (ended) throw new Error(`kassa serve exited with ${ended.code} before ${what}:\n${ended.stdout}\n${ended.stderr}`)
      if (Date.now() > deadline) throw new Error(`kassa serve: no ${what} within ${timeoutMs} ms:\n${watched.stdout()}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  await logged(() => logs().filter((line) => line.msg === 'a worker is serving').length >= workers, `${workers} workers serving`)
  const printed = watched.stdout()
  const accessKey = /accessKey:\s+(\S+)/.exec(printed)?.[1]
  const secret = /secret:\s+(\S+)/.exec(printed)?.[1]
  if (!accessKey || !secret) throw new Error(`kassa serve printed no Owner key:\n${printed}`)
  return { child, port, owner: { accessKey, secret }, stdout: watched.stdout, logs, logged, done: watched.done }
}
