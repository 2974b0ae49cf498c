/** The facts about this machine and checkout that make a benchmark figure comparable. */
import { execFileSync } from 'node:child_process'
import { availableParallelism, cpus, release, totalmem, type } from 'node:os'
import { createRequire } from 'node:module'

export interface Machine {
  cpus: number
  cpuModel: string
  memoryGiB: number
  os: string
  node: string
  fastify: string
  autocannon: string
  commit: string
}

function packageVersion(name: string): string {
  const require = createRequire(import.meta.url)
  return (require(`${name}/package.json`) as { version: string }).version
}

function gitCommit(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src'], { encoding: 'utf8' }).trim() !== ''
    return dirty ? `${commit} (src/ modified)` : commit
  } catch {
    return 'unknown'
  }
}

export function describeMachine(): Machine {
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    os: `${type()} ${release()}`,
    node: process.version,
    fastify: packageVersion('fastify'),
    autocannon: packageVersion('autocannon'),
    commit: gitCommit(),
  }
}
