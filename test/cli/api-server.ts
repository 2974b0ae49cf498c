/**
 * A Kassa server on 127.0.0.1 (the app in this process, on a fresh database of the backend under test)
 * for the CLI commands that talk to a running server, and the bin run against it.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import type { TestApp } from '../support/test-app.js'
import { startWebhookTestApp } from '../webhooks/webhook-helpers.js'
import { buildOnce, childEnv, runKassa, type Run } from './cli-process.js'

export interface ApiServer {
  t: TestApp
  url: string
  /** An empty folder the bin takes as XDG_CONFIG_HOME: no profiles file unless a test writes one. */
  configHome: string
  /** The sandbox's operating account (EUR) and its bank's business date. */
  operatingAccountId: string
  today: string
  /** A counterparty's external account, a destination for credit transfers. */
  externalAccountId: string
  /**
   * Runs the bin with KASSA_URL and the owner's key in its environment; `env` adds to or (with '')
   * removes from it, `input` is its standard input.
   */
  kassa(args: string[], options?: { env?: Record<string, string>; input?: string }): Promise<Run>
  close(): Promise<void>
}

export async function startApiServer(overrides: Parameters<typeof startWebhookTestApp>[0] = {}): Promise<ApiServer> {
  const t = await startWebhookTestApp(overrides)
  const url = await t.app.listen({ host: '127.0.0.1', port: 0 })
  const configHome = mkdtempSync(join(tmpdir(), 'kassa-cli-config-'))
  const accounts = await t.request({ method: 'GET', url: '/financial-data/v2/accounts' })
  const operating = accounts.json<{ items: Array<{ id: string; name: string }> }>().items.find((account) => account.name === 'Operating account')
  const clock = await t.request({ method: 'GET', url: '/v1/sandbox/clock' })
  const counterparty = await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody({ legalName: 'Payee GmbH' }) })
  expect(counterparty.statusCode, counterparty.body).toBe(201)
  return {
    t,
    url,
    configHome,
    operatingAccountId: operating!.id,
    today: clock.json<{ today: string }>().today,
    externalAccountId: counterparty.json<{ accounts: Array<{ id: string }> }>().accounts[0]!.id,
    kassa(args, { env = {}, input } = {}) {
      const base = { KASSA_URL: url, KASSA_ACCESS_KEY: t.owner.accessKey, KASSA_SECRET: t.owner.secret, XDG_CONFIG_HOME: configHome }
      const merged = Object.fromEntries(Object.entries({ ...base, ...env }).filter(([, value]) => value !== ''))
      return runKassa(args, childEnv(merged), input)
    },
    async close() {
      await t.close()
      rmSync(configHome, { recursive: true, force: true })
    },
  }
}

/**
 * The server a test file's commands run against: the bin built (once per test run) and the server
 * started before the file's first test, closed after its last. The object returned is filled in then:
 * read it inside tests and hooks, not while the file is collected.
 */
export function apiServerForFile(): ApiServer {
  const server = {} as ApiServer
  let started: ApiServer | undefined
  beforeAll(async () => {
    await buildOnce()
    started = await startApiServer()
    Object.assign(server, started)
  }, 300_000)
  afterAll(async () => {
    await started?.close()
  })
  return server
}

/** A successful run's stdout as JSON. */
export function jsonOf<T>(run: Run): T {
  expect(run.stderr).toBe('')
  expect(run.code).toBe(0)
  return JSON.parse(run.stdout) as T
}

/** GET through the API (the app's inject), as the owner or `as`. */
export async function apiGet<T>(server: ApiServer, url: string, as?: Credentials): Promise<T> {
  const response = await server.t.request({ method: 'GET', url, as })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<T>()
}

export const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
