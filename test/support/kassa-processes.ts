import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

/** A Kassa server process (test/support/kassa-process.ts) on a database of the test's. */
export interface KassaProcess {
  child: ChildProcess
  url: string
  port: number
}

/**
 * Forks a server process on `databaseUrl` and resolves once it listens; `env` adds to the test's environment.
 * `script`: another serveInChild script (test/support/child-server.ts) for an app built otherwise.
 */
export function startKassaProcess(databaseUrl: string, env: Record<string, string> = {}, script = new URL('./kassa-process.ts', import.meta.url)): Promise<KassaProcess> {
  const child = fork(fileURLToPath(script), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  })
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`Kassa exited with ${code} before listening`)))
    child.once('message', (message: { port: number }) => resolve({ child, url: `http://127.0.0.1:${message.port}`, port: message.port }))
  })
}

/** Sends `signal` (SIGKILL: no chance to finish anything) and resolves once the process is gone. */
export function stopped(child: ChildProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill(signal)
  })
}
