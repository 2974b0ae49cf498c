/**
 * The commands against a running server, when something is wrong: API errors with their reference,
 * an unreachable server, missing credentials, and where the server and the credentials come from
 * (options, environment, profiles file).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { apiGet, apiServerForFile, jsonOf, UUID } from './api-server.js'

const SLOW = 120_000
const MISSING = '00000000-0000-7000-8000-000000000000'

const server = apiServerForFile()

function writeProfiles(content: unknown): string {
  const folder = join(server.configHome, 'kassa')
  mkdirSync(folder, { recursive: true })
  const file = join(folder, 'profiles.json')
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content), { mode: 0o600 })
  return file
}

/** A port nothing listens on: taken, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

const NO_CREDENTIALS = { KASSA_ACCESS_KEY: '', KASSA_SECRET: '' }

describe('API errors', { timeout: SLOW }, () => {
  it('a 404 prints the message, status, code and request id on stderr and exits 1', async () => {
    const run = await server.kassa(['credit-transfers', 'get', MISSING])
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toMatch(new RegExp(`^kassa: .*${MISSING}.* \\(404, not_found, request id ${UUID.source}\\)\n$`))
  })

  it('a 400 also prints the reasons its message does not name', async () => {
    const run = await server.kassa(['credit-transfers', 'list', '--status', 'DONE'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(new RegExp(`^kassa: .+ \\(400, invalid_request, request id ${UUID.source}\\)\n  status: must be one of \\[CREATED, `))
  })

  it('a 403 from a read-only key', async () => {
    const readOnly = await server.t.newKey('read-only')
    const run = await server.kassa(['counterparties', 'create', '--legal-name', 'Not allowed'], {
      env: { KASSA_ACCESS_KEY: readOnly.accessKey, KASSA_SECRET: readOnly.secret },
    })
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^kassa: .+ \(403, forbidden, request id [0-9a-f-]{36}\)\n$/)
    expect(jsonOf<unknown[]>(await server.kassa(['counterparties', 'list', '--query', 'Not allowed', '--json']))).toEqual([])
  })

  it('an unreachable server is named by its address', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`
    const run = await server.kassa(['counterparties', 'list'], { env: { KASSA_URL: url } })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`kassa: The server is not reachable at ${url} (ECONNREFUSED)\n`)
  })

  it('an address that is no http(s) URL is refused before anything is sent', async () => {
    const run = await server.kassa(['counterparties', 'list', '--url', 'localhost:8080'])
    expect(run).toMatchObject({ code: 1, stderr: 'kassa: The server address "localhost:8080" must be http:// or https://\n' })
  })
})

describe('credentials and profiles', { timeout: SLOW }, () => {
  it('without credentials: a clear error naming where they come from', async () => {
    const run = await server.kassa(['counterparties', 'list'], { env: NO_CREDENTIALS })
    expect(run.code).toBe(1)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(
      `kassa: No credentials: set KASSA_ACCESS_KEY and KASSA_SECRET, or put accessKey and secret in a profile of ${join(server.configHome, 'kassa', 'profiles.json')} ("default", or the one --profile names)\n`,
    )
    const half = await server.kassa(['counterparties', 'list'], { env: { KASSA_SECRET: '' } })
    expect(half).toMatchObject({ code: 1, stderr: 'kassa: KASSA_ACCESS_KEY is set but KASSA_SECRET is not\n' })
  })

  it('--url beats KASSA_URL', async () => {
    const run = await server.kassa(['counterparties', 'list', '--url', server.url, '--json'], { env: { KASSA_URL: `http://127.0.0.1:${await closedPort()}` } })
    expect(jsonOf<unknown[]>(run).length).toBeGreaterThan(0)
  })

  it('the "default" profile serves when the environment has nothing; --profile NAME picks another, beating the environment', async () => {
    const readOnly = await server.t.newKey('read-only')
    writeProfiles({
      profiles: {
        default: { url: server.url, accessKey: server.t.owner.accessKey, secret: server.t.owner.secret },
        reader: { url: server.url, accessKey: readOnly.accessKey, secret: readOnly.secret },
      },
    })
    const all = await apiGet<{ items: unknown[] }>(server, '/payments/v2/counterparties?limit=500')
    const fromDefault = await server.kassa(['counterparties', 'list', '--json'], { env: { ...NO_CREDENTIALS, KASSA_URL: '' } })
    expect(jsonOf(fromDefault)).toEqual(all.items)
    // The owner's key is in the environment, yet the named profile's read-only key is used: 403.
    const fromNamed = await server.kassa(['counterparties', 'create', '--legal-name', 'Reader', '--profile', 'reader'])
    expect(fromNamed.code).toBe(1)
    expect(fromNamed.stderr).toContain('(403, forbidden, request id ')
    const unknown = await server.kassa(['counterparties', 'list', '--profile', 'production'])
    expect(unknown.code).toBe(1)
    expect(unknown.stderr).toBe(`kassa: No profile "production" in ${join(server.configHome, 'kassa', 'profiles.json')}; it has "default", "reader"\n`)
  })

  it('a broken profiles file is an error that never shows a secret', async () => {
    const secret = server.t.owner.secret
    const file = writeProfiles(`{"profiles": {"default": {"accessKey": "KA1", "secret": "${secret}",}}}`)
    const broken = await server.kassa(['counterparties', 'list'], { env: NO_CREDENTIALS })
    expect(broken).toMatchObject({ code: 1, stderr: `kassa: The profiles file ${file} is not valid JSON\n` })
    writeProfiles({ profiles: { default: { accessKey: 'KA1', secret, token: secret } } })
    const unknownField = await server.kassa(['counterparties', 'list'], { env: NO_CREDENTIALS })
    expect(unknownField.code).toBe(1)
    expect(unknownField.stderr).toContain('has an unknown field "token"')
    writeProfiles({ profiles: { default: { secret } } })
    const half = await server.kassa(['counterparties', 'list'], { env: NO_CREDENTIALS })
    expect(half).toMatchObject({ code: 1, stderr: 'kassa: secret is set but accessKey is not in profile "default"\n' })
    for (const run of [broken, unknownField, half]) expect(run.stderr).not.toContain(secret)
    writeProfiles({ profiles: {} })
  })
})
