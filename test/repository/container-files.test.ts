/**
 * The Dockerfile and compose.yaml (issue 14; docs/deployment.md), checked where no Docker daemon runs: parsed
 * with maintained parsers and held against the repository and Kassa's own configuration. Where a daemon
 * answers, scripts/check-container.sh (called by .ci/run) also builds the image and starts the compose file.
 */
import { spawn } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DockerfileParser, From, ModifiableInstruction, type Instruction } from 'dockerfile-ast'
import pg from 'pg'
import { parse } from 'yaml'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SHUTDOWN_DEADLINE_MILLISECONDS } from '../../src/cluster.js'
import { loadConfig } from '../../src/config/config.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

interface Stage {
  from: { image: string | null; tag: string | null; name: string | null }
  instructions: Instruction[]
}

/** The Dockerfile's build stages in order, each with the instructions after its FROM. */
function stagesOf(text: string): Stage[] {
  const stages: Stage[] = []
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    if (instruction instanceof From) {
      stages.push({ from: { image: instruction.getImageName(), tag: instruction.getImageTag(), name: instruction.getBuildStage() }, instructions: [] })
    } else stages.at(-1)!.instructions.push(instruction)
  }
  return stages
}

const words = (instruction: Instruction) => instruction.getArguments().map((argument) => argument.getValue())
const flagsOf = (instruction: Instruction) =>
  Object.fromEntries((instruction instanceof ModifiableInstruction ? instruction.getFlags() : []).map((flag) => [flag.getName(), flag.getValue()]))
/** An exec-form (JSON array) instruction's array: CMD, or HEALTHCHECK's command after `CMD`. */
const execForm = (content: string) => JSON.parse(content) as string[]
const named = (stage: Stage, keyword: string) => stage.instructions.filter((instruction) => instruction.getKeyword() === keyword)

const dockerfile = stagesOf(read('Dockerfile'))
const runtime = dockerfile.at(-1)!
const imageEnv = Object.fromEntries(
  DockerfileParser.parse(read('Dockerfile'))
    .getENVs()
    .flatMap((env) => env.getProperties().map((property) => [property.getName(), property.getValue() ?? ''])),
)

/** Every environment variable loadConfig reads, recorded as it reads them. */
function variablesKassaReads(): Set<string> {
  const names = new Set<string>()
  loadConfig(new Proxy({}, { get: (_, name) => (typeof name === 'string' && names.add(name), undefined) }))
  return names
}

describe('Dockerfile', () => {
  it('is multi-stage: a build stage, then a runtime on the same exactly pinned Node 20 slim image (the native module built for it)', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2)
    expect(runtime.from.image).toBe('node')
    expect(runtime.from.tag).toMatch(/^20\.\d+\.\d+-(\w+-)?slim$/)
    const build = dockerfile.find((stage) => named(stage, 'RUN').some((run) => /\bnpm run build\b/.test(run.getArgumentsContent() ?? '')))
    expect(build?.from).toEqual({ ...runtime.from, name: build?.from.name })
  })

  it('runs as a user other than root in the runtime stage', () => {
    const users = named(runtime, 'USER').map((user) => words(user)[0])
    expect(users.length).toBeGreaterThan(0)
    expect(['root', '0']).not.toContain(users.at(-1))
  })

  it('copies from the build context only paths that exist and .dockerignore lets through; from stages it defines', () => {
    const ignored = read('.dockerignore').split('\n').filter((line) => line && !line.startsWith('#'))
    const stageNames = dockerfile.map((stage) => stage.from.name)
    const copies = dockerfile.flatMap((stage) => named(stage, 'COPY'))
    expect(copies.length).toBeGreaterThan(0)
    for (const copy of copies) {
      const from = flagsOf(copy).from
      const sources = words(copy).slice(0, -1)
      if (from !== undefined) expect(stageNames, copy.getArgumentsContent() ?? '').toContain(from)
      else {
        for (const source of sources) {
          expect(existsSync(join(ROOT, source)), source).toBe(true)
          expect(ignored, source).not.toContain(source)
        }
      }
    }
  })

  it('starts `kassa serve` from the bin, which runs the server compiled from src/ by npm run build', () => {
    expect(execForm(named(runtime, 'CMD')[0]!.getArgumentsContent()!)).toEqual(['node', 'bin/kassa.js', 'serve'])
    expect(read('bin/kassa.js')).toMatch(/^import '\.\.\/dist\/src\/cli\/main\.js'$/m)
    const { compilerOptions } = JSON.parse(read('tsconfig.json')) as { compilerOptions: { outDir: string; rootDir: string } }
    expect(compilerOptions).toMatchObject({ outDir: 'dist', rootDir: '.' })
    expect(JSON.parse(read('tsconfig.build.json'))).toMatchObject({ extends: './tsconfig.json', include: ['src'] })
    expect(existsSync(join(ROOT, 'src/cli/main.ts'))).toBe(true)
    const fromBuild = named(runtime, 'COPY').filter((copy) => flagsOf(copy).from !== undefined).map((copy) => words(copy)[0])
    expect(fromBuild).toEqual(expect.arrayContaining(['/app/bin', '/app/dist', '/app/node_modules']))
  })

  it('listens on every interface at the port it exposes, keeps its SQLite file in a volume, and sets only variables Kassa reads', () => {
    expect(imageEnv.HOST).toBe('0.0.0.0')
    expect(named(runtime, 'EXPOSE').flatMap(words)).toEqual([imageEnv.PORT])
    const databaseFile = imageEnv.DATABASE_URL!.replace(/^sqlite:/, '')
    const volumes = named(runtime, 'VOLUME').flatMap(words)
    expect(volumes.some((volume) => databaseFile.startsWith(`${volume}/`))).toBe(true)
    expect(volumes.some((volume) => imageEnv.KASSA_BANK_FILES_DIR!.startsWith(`${volume}/`))).toBe(true)
    const reads = variablesKassaReads()
    for (const name of Object.keys(imageEnv)) expect(reads, name).toContain(name)
    expect(loadConfig(imageEnv)).toMatchObject({ host: '0.0.0.0', port: Number(imageEnv.PORT), databaseUrl: imageEnv.DATABASE_URL })
  })

  describe('HEALTHCHECK', () => {
    let t: TestApp
    let port: number
    const healthcheck = named(runtime, 'HEALTHCHECK')[0]!
    const command = execForm(healthcheck.getArgumentsContent()!.replace(/^CMD\s+/, ''))
    const probe = (env: Record<string, string>) =>
      new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, command.slice(1), { env: { PATH: process.env.PATH, ...env } })
        child.once('error', reject)
        child.once('exit', resolve)
      })

    beforeAll(async () => {
      t = await startTestApp()
      await t.app.listen({ host: '127.0.0.1', port: 0 })
      port = (t.app.server.address() as { port: number }).port
    })
    afterAll(() => t?.close())

    it("runs Node's own fetch (the slim image has no curl): exit 0 while /readyz answers 200, 1 once nothing listens", async () => {
      expect(command[0]).toBe('node')
      expect(command.join(' ')).toContain('/readyz')
      expect(await probe({ PORT: String(port) })).toBe(0)
      await t.app.close()
      expect(await probe({ PORT: String(port) })).toBe(1)
    })
  })
})

interface Service {
  image?: string
  build?: string
  environment?: Record<string, string>
  healthcheck?: { test: string[] }
  depends_on?: Record<string, { condition: string }>
  ports?: string[]
  volumes?: string[]
  stop_grace_period?: string
}
const compose = parse(read('compose.yaml')) as { services: Record<string, Service>; volumes: Record<string, unknown> }
const { kassa, postgres, redis } = compose.services

/** Compose's `${NAME:-default}` as compose sees it with NAME unset. */
const interpolated = (value: string) => value.replace(/\$\{\w+:-([^}]*)\}/g, '$1')

describe('compose.yaml', () => {
  it('runs Kassa built from this repository, PostgreSQL and Redis 7', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['kassa', 'postgres', 'redis'])
    expect(kassa!.build).toBe('.')
    expect(postgres!.image).toMatch(/^postgres:\d+/)
    expect(redis!.image).toMatch(/^redis:7\b/)
  })

  it('starts Kassa once PostgreSQL and Redis pass their health checks; Kassa has the image HEALTHCHECK', () => {
    expect(kassa!.depends_on).toEqual({ postgres: { condition: 'service_healthy' }, redis: { condition: 'service_healthy' } })
    expect(postgres!.healthcheck!.test).toEqual(['CMD', 'pg_isready', '-U', postgres!.environment!.POSTGRES_USER, '-d', postgres!.environment!.POSTGRES_DB])
    expect(redis!.healthcheck!.test).toEqual(['CMD', 'redis-cli', 'ping'])
    expect(kassa!.healthcheck ?? named(runtime, 'HEALTHCHECK')[0]).toBeDefined()
  })

  it("gives Kassa only variables its configuration reads, pointing at the compose file's own PostgreSQL and Redis", () => {
    const environment = kassa!.environment!
    const reads = variablesKassaReads()
    for (const name of Object.keys(environment)) expect(reads, name).toContain(name)
    const config = loadConfig(Object.fromEntries(Object.entries({ ...imageEnv, ...environment }).map(([name, value]) => [name, interpolated(value)])))
    const database = new URL(config.databaseUrl)
    expect(database.protocol).toBe('postgres:')
    expect(`${database.hostname}:${database.port}`).toBe('postgres:5432')
    expect(database.username).toBe(postgres!.environment!.POSTGRES_USER)
    expect(decodeURIComponent(database.password)).toBe(interpolated(postgres!.environment!.POSTGRES_PASSWORD!))
    expect(database.pathname).toBe(`/${postgres!.environment!.POSTGRES_DB}`)
    expect(config.redisUrl).toBe('redis://redis:6379')
  })

  it('publishes Kassa on the host loopback only (a TLS proxy in front), at the port the image listens on', () => {
    expect(kassa!.ports!.map(interpolated)).toEqual([`127.0.0.1:8080:${imageEnv.PORT}`])
  })

  it('keeps PostgreSQL data and Kassa bank files in named volumes', () => {
    expect(postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data')
    expect(kassa!.volumes).toContain(`kassa-data:${named(runtime, 'VOLUME').flatMap(words)[0]}`)
    expect(Object.keys(compose.volumes).sort()).toEqual(['kassa-data', 'postgres-data'])
  })

  it("gives Kassa's workers longer to stop than the primary waits for them before it kills them", () => {
    expect(kassa!.stop_grace_period).toMatch(/^\d+s$/)
    expect(Number.parseInt(kassa!.stop_grace_period!, 10) * 1000).toBeGreaterThan(SHUTDOWN_DEADLINE_MILLISECONDS)
  })

  it.runIf(testBackend() === 'postgres')('runs the PostgreSQL major the test suite runs on', async () => {
    const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
    await client.connect()
    try {
      const { rows } = await client.query<{ server_version_num: string }>('show server_version_num')
      expect(postgres!.image).toMatch(new RegExp(`^postgres:${Math.floor(Number(rows[0]!.server_version_num) / 10_000)}\\b`))
    } finally {
      await client.end()
    }
  })
})
