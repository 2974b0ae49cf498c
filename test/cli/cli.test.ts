/**
 * The `kassa` command as users run it: the real bin (bin/kassa.js → dist/), spawned as a child
 * process on a DATABASE_URL of the backend under test, next to a real `kassa serve`.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody } from '../support/fixtures.js'
import { basicAuth } from '../support/test-app.js'
import { testBackend } from '../support/test-database.js'
import { BIN, buildOnce, childEnv, collect, ROOT, watch, type Run } from './cli-process.js'

/** Each test spawns several Node processes; on a loaded machine one can take seconds. */
const SLOW = 120_000
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

function kassa(args: string[], databaseUrl: string): Promise<Run> {
  return collect(spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: childEnv({ DATABASE_URL: databaseUrl }) }))
}

interface FreshDatabase {
  url: string
  drop(): Promise<void>
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL })
  await client.connect()
  try {
    await client.query(sql)
  } finally {
    await client.end()
  }
}

/** An empty, unmigrated database of the backend under test. */
async function freshDatabase(form: 'sqlite:' | 'path' = 'sqlite:'): Promise<FreshDatabase> {
  if (testBackend() === 'postgres') {
    const name = `kassa_cli_${randomBytes(6).toString('hex')}`
    await adminQuery(`create database ${name}`)
    const url = new URL(process.env.TEST_DATABASE_URL!)
    url.pathname = `/${name}`
    return { url: url.toString(), drop: () => adminQuery(`drop database if exists ${name} with (force)`) }
  }
  const directory = mkdtempSync(join(tmpdir(), 'kassa-cli-'))
  const file = join(directory, 'nested', 'kassa.sqlite')
  return {
    url: form === 'path' ? file : `sqlite:${file}`,
    drop: async () => rmSync(directory, { recursive: true, force: true }),
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

interface Server {
  base: string
  output(): string
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>
}

const servers = new Set<ChildProcess>()

/** `kassa serve` on a spare port; resolves once /healthz answers. */
async function serve(databaseUrl: string): Promise<Server> {
  const port = await freePort()
  const child = spawn(process.execPath, [BIN, 'serve'], {
    cwd: ROOT,
    env: childEnv({ DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1' }),
  })
  servers.add(child)
  const watched = watch(child)
  let exited: Run | undefined
  void watched.done.then((run) => (exited = run))
  const base = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (exited) throw new Error(`kassa serve exited with ${exited.code}:\n${exited.stdout}\n${exited.stderr}`)
    try {
      if ((await fetch(`${base}/healthz`)).ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error('kassa serve did not answer /healthz within 90 s')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    base,
    output: watched.stdout,
    async stop() {
      child.kill('SIGTERM')
      const run = await watched.done
      servers.delete(child)
      return run.code
    },
  }
}

interface Printed {
  organizationId: string
  accessKey: string
  secret: string
  role?: string
}

function credentialsOf(run: Run): Printed {
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout) as Printed
}

async function api(base: string, credentials: { accessKey: string; secret: string }, method: string, path: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: basicAuth(credentials),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

const databases: FreshDatabase[] = []
async function database(form?: 'sqlite:' | 'path'): Promise<string> {
  const fresh = await freshDatabase(form)
  databases.push(fresh)
  return fresh.url
}

beforeAll(async () => {
  await buildOnce()
}, 300_000)

afterAll(async () => {
  for (const child of servers) child.kill('SIGKILL')
  for (const fresh of databases) await fresh.drop()
})

describe('kassa migrate', { timeout: SLOW }, () => {
  it('applies the migrations to a fresh database and exits 0; a second run has nothing to do', async () => {
    const url = await database()
    const first = await kassa(['migrate'], url)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^Applied: 0001-foundation/)
    const second = await kassa(['migrate'], url)
    expect(second.code).toBe(0)
    expect(second.stdout).toBe('Database is up to date\n')
  })

  it('four processes migrating one fresh database at once apply each migration once and all exit 0', async () => {
    const url = await database()
    const runs = await Promise.all([1, 2, 3, 4].map(() => kassa(['migrate'], url)))
    for (const run of runs) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' })
    // PostgreSQL: an advisory lock; SQLite: BEGIN IMMEDIATE around all of them (database.ts), read after the lock.
    const applied = runs.flatMap((run) => (run.stdout.startsWith('Applied: ') ? run.stdout.slice('Applied: '.length).trim().split(', ') : []))
    expect(applied[0]).toBe('0001-foundation')
    expect(new Set(applied).size).toBe(applied.length)
    expect(runs.filter((run) => run.stdout === 'Database is up to date\n')).toHaveLength(3)
    expect((await kassa(['migrate'], url)).stdout).toBe('Database is up to date\n')
  })

  it.runIf(testBackend() === 'sqlite')('takes DATABASE_URL as a plain file path too, creating its folder', async () => {
    const url = await database('path')
    const run = await kassa(['migrate'], url)
    expect(run.code).toBe(0)
    expect(statSync(url).isFile()).toBe(true)
  })
})

describe('kassa orgs create', { timeout: SLOW }, () => {
  it('--json prints exactly {organizationId, accessKey, secret}', async () => {
    const url = await database()
    const owner = credentialsOf(await kassa(['orgs', 'create', '--name', 'Acme', '--json'], url))
    expect(Object.keys(owner).sort()).toEqual(['accessKey', 'organizationId', 'secret'])
    expect(owner.organizationId).toMatch(UUID)
    expect(owner.accessKey).not.toBe('')
    expect(owner.secret.length).toBeGreaterThanOrEqual(32)
    const other = credentialsOf(await kassa(['orgs', 'create', '--name', 'Acme', '--json'], url))
    expect(other.organizationId).not.toBe(owner.organizationId)
    expect(other.accessKey).not.toBe(owner.accessKey)
  })

  it('without --json prints one field a line', async () => {
    const run = await kassa(['orgs', 'create', '--name', 'Acme'], await database())
    expect(run.code).toBe(0)
    expect(run.stdout).toMatch(/^organizationId: \S+\naccessKey: \S+\nsecret: \S+\n$/)
  })

  it('fails without --name, or with an empty one', async () => {
    const url = await database()
    const missing = await kassa(['orgs', 'create', '--json'], url)
    expect(missing.code).not.toBe(0)
    expect(missing.stdout).toBe('')
    expect(missing.stderr).toContain("required option '--name <name>' not specified")
    const empty = await kassa(['orgs', 'create', '--name', '  ', '--json'], url)
    expect(empty.code).not.toBe(0)
    expect(empty.stdout).toBe('')
    expect(empty.stderr).toContain('must not be empty')
  })
})

describe('kassa keys create', { timeout: SLOW }, () => {
  let url: string
  let organizationId: string
  beforeAll(async () => {
    url = await database()
    organizationId = credentialsOf(await kassa(['orgs', 'create', '--name', 'Keys', '--json'], url)).organizationId
  })

  it.each(['owner', 'admin', 'read-only'])('--role %s --json prints {organizationId, accessKey, secret, role}', async (role) => {
    const key = credentialsOf(await kassa(['keys', 'create', '--org', organizationId, '--role', role, '--json'], url))
    expect(Object.keys(key).sort()).toEqual(['accessKey', 'organizationId', 'role', 'secret'])
    expect(key).toMatchObject({ organizationId, role })
  })

  it('fails clearly on an unknown role', async () => {
    const run = await kassa(['keys', 'create', '--org', organizationId, '--role', 'accountant', '--json'], url)
    expect(run.code).not.toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `kassa: Organization ${organizationId} has no role "accountant"; the built-in roles are owner, admin, read-only\n`,
    )
  })

  it('fails clearly on an unknown organization', async () => {
    const unknown = '00000000-0000-7000-8000-000000000000'
    const run = await kassa(['keys', 'create', '--org', unknown, '--role', 'admin', '--json'], url)
    expect(run.code).not.toBe(0)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`kassa: No organization ${unknown}\n`)
  })

  it('fails without --org or --role', async () => {
    const noRole = await kassa(['keys', 'create', '--org', organizationId, '--json'], url)
    expect(noRole.code).not.toBe(0)
    expect(noRole.stderr).toContain("required option '--role <role>' not specified")
    const noOrg = await kassa(['keys', 'create', '--role', 'admin', '--json'], url)
    expect(noOrg.code).not.toBe(0)
    expect(noOrg.stderr).toContain("required option '--org <organizationId>' not specified")
  })

  it('an unknown command fails', async () => {
    const run = await kassa(['frobnicate'], url)
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain("unknown command 'frobnicate'")
  })

  it('--version prints the version of package.json', async () => {
    const run = await kassa(['--version'], url)
    expect(run.code).toBe(0)
    expect(run.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version)
  })

  it('help <command> and a failing subcommand print that subcommand\'s usage, not the top-level list', async () => {
    const help = await kassa(['help', 'keys'], url)
    expect(help.stdout).toContain('Usage: kassa keys [options] [command]')
    expect(help.stdout).not.toContain('migrate')
    const nested = await kassa(['help', 'keys', 'create'], url)
    expect(nested.stdout).toContain('Usage: kassa keys create [options]')
    expect(nested.stdout).toContain('--role <role>')
    const unknown = await kassa(['help', 'keys', 'frobnicate'], url)
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toContain("unknown command 'frobnicate'")
    const failing = await kassa(['keys', 'create', '--org', 'x'], url)
    expect(failing.code).not.toBe(0)
    expect(failing.stderr).toContain("error: required option '--role <role>' not specified")
    expect(failing.stderr).toContain('Usage: kassa keys create [options]')
    expect(failing.stderr).not.toContain('migrate')
  })

  it('a DATABASE_URL with an unknown scheme stops it, naming the variable and the accepted forms, creating nothing', async () => {
    const run = await kassa(['migrate'], 'postgress://postgres@127.0.0.1:5432/test')
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('kassa: Invalid configuration: DATABASE_URL must be postgres://user:password@host:5432/db')
    expect(run.stderr).toContain('got "postgress://postgres@127.0.0.1:5432/test"')
    expect(existsSync(join(ROOT, 'postgress:'))).toBe(false)
  })
})

describe('kassa serve', { timeout: SLOW }, () => {
  let url: string
  let server: Server | undefined
  let owner: { organizationId: string; accessKey: string; secret: string }

  beforeAll(async () => {
    url = await database()
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('on an empty database seeds a sandbox organization, prints its owner key once, and answers the probes', async () => {
    server = await serve(url)
    const output = server.output()
    const printed = {
      organizationId: /organizationId:\s+(\S+)/.exec(output)?.[1],
      accessKey: /accessKey:\s+(\S+)/.exec(output)?.[1],
      secret: /secret:\s+(\S+)/.exec(output)?.[1],
    }
    expect(printed.organizationId, output).toMatch(UUID)
    expect(printed.accessKey, output).toBeTruthy()
    expect(printed.secret, output).toBeTruthy()
    expect(output.match(/accessKey:/g)).toHaveLength(1)
    owner = printed as typeof owner
    expect(await (await fetch(`${server.base}/healthz`)).json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${server.base}/readyz`)
    expect(ready.status).toBe(200)
    expect(ready.headers.get('request-id')).toBeTruthy()
  })

  it("the printed owner key works: the sandbox organization's accounts", async () => {
    const accounts = await api(server!.base, owner, 'GET', '/financial-data/v2/accounts')
    expect(accounts.status).toBe(200)
    expect((accounts.body.items as unknown[]).length).toBeGreaterThanOrEqual(2)
    const unauthenticated = await fetch(`${server!.base}/financial-data/v2/accounts`)
    expect(unauthenticated.status).toBe(401)
  })

  it('the CLI works on the same database while the server runs, and its keys work at once', async () => {
    const org = credentialsOf(await kassa(['orgs', 'create', '--name', 'Beside the server', '--json'], url))
    const accounts = await api(server!.base, org, 'GET', '/financial-data/v2/accounts')
    expect(accounts.status).toBe(200)
    const created = await api(server!.base, org, 'POST', '/payments/v2/counterparties', counterpartyBody())
    expect(created.status).toBe(201)
    expect(created.body.organizationId).toBe(org.organizationId)
    // The other organization's counterparty is invisible to the seeded owner.
    const foreign = await api(server!.base, owner, 'GET', `/payments/v2/counterparties/${String(created.body.id)}`)
    expect(foreign.status).toBe(404)

    const keyFor = async (role: string) =>
      credentialsOf(await kassa(['keys', 'create', '--org', owner.organizationId, '--role', role, '--json'], url))
    const readOnly = await keyFor('read-only')
    expect((await api(server!.base, readOnly, 'GET', '/payments/v2/counterparties')).status).toBe(200)
    const denied = await api(server!.base, readOnly, 'POST', '/payments/v2/counterparties', counterpartyBody())
    expect(denied.status).toBe(403)
    expect(denied.body.code).toBe('forbidden')
    const admin = await keyFor('admin')
    expect((await api(server!.base, admin, 'POST', '/payments/v2/counterparties', counterpartyBody())).status).toBe(201)
    const newOwner = await keyFor('owner')
    expect((await api(server!.base, newOwner, 'GET', '/payments/v2/counterparties')).status).toBe(200)
    expect((await kassa(['migrate'], url)).stdout).toBe('Database is up to date\n')
  })

  it('stops on SIGTERM with exit code 0', async () => {
    const code = await server!.stop()
    server = undefined
    expect(code).toBe(0)
  })

  it('a second start on the same database prints no key, and the first owner key still works', async () => {
    server = await serve(url)
    expect(server.output()).not.toMatch(/accessKey|secret/)
    expect((await fetch(`${server.base}/healthz`)).status).toBe(200)
    expect((await api(server.base, owner, 'GET', '/financial-data/v2/accounts')).status).toBe(200)
  })
})

describe('kassa sandbox and kassa import', { timeout: SLOW }, () => {
  it('are commands of the bin', async () => {
    const url = await database()
    const org = credentialsOf(await kassa(['orgs', 'create', '--name', 'Sandbox commands', '--json'], url))
    const clock = await kassa(['sandbox', 'clock', '--org', org.organizationId, '--json'], url)
    expect(clock.stderr).toBe('')
    expect(clock.code).toBe(0)
    expect(JSON.parse(clock.stdout)).toMatchObject({ today: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/) })
    const missing = await kassa(['import', 'statement', join(tmpdir(), 'no-such-statement.xml'), '--org', org.organizationId], url)
    expect(missing.code).not.toBe(0)
    expect(missing.stdout).toBe('')
    expect(missing.stderr).toContain('no-such-statement.xml')
  })
})

describe('npx kassa', { timeout: SLOW }, () => {
  it('runs the bin from the checkout', async () => {
    const url = await database()
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx'
    const run = await collect(
      spawn(npx, ['--no-install', 'kassa', 'orgs', 'create', '--name', 'Via npx', '--json'], {
        cwd: ROOT,
        env: childEnv({ DATABASE_URL: url }),
      }),
    )
    expect(run.code, run.stderr).toBe(0)
    expect(Object.keys(JSON.parse(run.stdout)).sort()).toEqual(['accessKey', 'organizationId', 'secret'])
  })
})
