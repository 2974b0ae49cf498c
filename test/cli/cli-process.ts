/**
 * The `kassa` bin as users run it (bin/kassa.js → dist/), spawned as a child process, and the build
 * it runs from, made once per test run.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { inject } from 'vitest'

export const ROOT = fileURLToPath(new URL('../..', import.meta.url))
export const BIN = join(ROOT, 'bin', 'kassa.js')

export interface Run {
  code: number | null
  stdout: string
  stderr: string
}

export interface Collected {
  /** What the child printed so far. */
  stdout(): string
  /** Its exit code and everything it printed. */
  done: Promise<Run>
}

/** What a running child prints, readable while it runs (a server's first lines) and whole at its end. */
export function watch(child: ChildProcess): Collected {
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const done = new Promise<Run>((resolve, reject) => {
    child.once('error', reject)
    child.once('close', (code) => resolve({ code, stdout, stderr }))
  })
  return { stdout: () => stdout, done }
}

export function collect(child: ChildProcess): Promise<Run> {
  return watch(child).done
}

/** The environment of a child: ours, without anything that would change Kassa's behaviour, plus `extra`. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env }
  for (const name of Object.keys(env)) {
    if (['DATABASE_URL', 'HOST', 'PORT', 'LOG_LEVEL', 'XDG_CONFIG_HOME'].includes(name) || name.startsWith('KASSA_')) delete env[name]
  }
  return { ...env, LOG_LEVEL: 'warn', ...extra }
}

/** Runs the bin with `args` in the environment `env` (see childEnv); `input` is written to its standard input. */
export function runKassa(args: string[], env: NodeJS.ProcessEnv, input?: string): Promise<Run> {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env })
  const run = collect(child)
  child.stdin?.end(input)
  return run
}

/**
 * `npm run build` once per test run, even with the SQLite and PostgreSQL projects and several CLI test
 * files running at the same time: the lock lets one build at a time, and the file beside it records the
 * run (test/support/test-run.ts) whose build is there, so the others of that run find it done.
 */
export async function buildOnce(): Promise<void> {
  const name = join(tmpdir(), `kassa-cli-build-${Buffer.from(ROOT).toString('hex').slice(-32)}`)
  const lock = `${name}.lock`
  const built = `${name}.run`
  const run = inject('testRunId')
  const deadline = Date.now() + 240_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now())
      if (age > 300_000) rmSync(lock, { recursive: true, force: true })
      if (Date.now() > deadline) throw new Error(`Timed out waiting for the build lock ${lock}`)
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }
  try {
    if (readFileSync(built, { encoding: 'utf8', flag: 'a+' }) === run) return
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
    const build = await collect(spawn(npm, ['run', 'build'], { cwd: ROOT, env: process.env }))
    if (build.code !== 0) throw new Error(`npm run build failed (${build.code}):\n${build.stdout}\n${build.stderr}`)
    writeFileSync(built, run)
  } finally {
    rmdirSync(lock)
  }
}
