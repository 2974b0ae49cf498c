import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { counterpartyBody, externalAccountBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { expectError } from './expectations.js'

/**
 * DELETE is an update (spec: Request headers, If-Match "required on updates"): on every resource
 * with an etag it needs If-Match — missing → 428, stale → 412 — and compares it in the transaction
 * that deletes, so a PATCH that lands first turns the DELETE into a 412, never a lost update.
 */

let t: TestApp
beforeAll(async () => {
  t = await startTestApp()
})
afterAll(() => t.close())

interface Deletable {
  /** Where to GET, PATCH and DELETE it. */
  url: string
  etag: string
}

interface Case {
  resource: string
  create(): Promise<Deletable>
  /** A JSON Patch the resource accepts, `n` making each one different. */
  change(n: number): unknown[]
}

/** POSTs `body` to `url` (201) and says where the new resource is. */
async function created(url: string, body: unknown, at: (json: { id: string; etag: string }) => string): Promise<Deletable> {
  const response = await t.request({ method: 'POST', url, body })
  expect(response.statusCode, response.body).toBe(201)
  const json = response.json<{ id: string; etag: string }>()
  return { url: at(json), etag: json.etag }
}

async function roleIdOf(name: string): Promise<string> {
  const roles = (await t.request({ method: 'GET', url: '/iam/v2/roles' })).json<{ items: Array<{ id: string; name: string }> }>()
  return roles.items.find((role) => role.name === name)!.id
}

let sequence = 0
const unique = (prefix: string) => `${prefix}-${++sequence}`

const CASES: Case[] = [
  {
    resource: 'counterparties',
    create: () => created('/payments/v2/counterparties', counterpartyBody(), (json) => `/payments/v2/counterparties/${json.id}`),
    change: (n) => [{ op: 'replace', path: '/alias', value: `alias ${n}` }],
  },
  {
    resource: 'counterparties by external:{externalId}',
    create: () => {
      const externalId = unique('deletable')
      return created('/payments/v2/counterparties', counterpartyBody({ externalId }), () => `/payments/v2/counterparties/external:${externalId}`)
    },
    change: (n) => [{ op: 'replace', path: '/alias', value: `alias ${n}` }],
  },
  {
    resource: 'external accounts',
    create: async () => {
      const counterparty = await created('/payments/v2/counterparties', counterpartyBody({ accounts: [] }), (json) => json.id)
      return created('/payments/v2/external-accounts', externalAccountBody(counterparty.url), (json) => `/payments/v2/external-accounts/${json.id}`)
    },
    change: (n) => [{ op: 'add', path: '/alias', value: `alias ${n}` }],
  },
  {
    resource: 'external accounts by external:{externalId}',
    create: async () => {
      const externalId = unique('deletable-account')
      const counterparty = await created('/payments/v2/counterparties', counterpartyBody({ accounts: [] }), (json) => json.id)
      return created('/payments/v2/external-accounts', externalAccountBody(counterparty.url, { externalId }), () => `/payments/v2/external-accounts/external:${externalId}`)
    },
    change: (n) => [{ op: 'add', path: '/alias', value: `alias ${n}` }],
  },
  {
    resource: 'users',
    create: async () => {
      const body = { type: 'PROGRAMMATIC', name: unique('Deletable user'), roleId: await roleIdOf('read-only') }
      return created('/iam/v2/users', body, (json) => `/iam/v2/users/${json.id}`)
    },
    change: (n) => [{ op: 'replace', path: '/name', value: `Renamed user ${n}` }],
  },
  {
    resource: 'roles',
    create: () => created('/iam/v2/roles', { name: unique('deletable-role'), permissions: ['accounts:read'] }, (json) => `/iam/v2/roles/${json.id}`),
    change: (n) => [{ op: 'add', path: '/description', value: `description ${n}` }],
  },
  {
    resource: 'approval chains',
    create: async () => {
      const body = { name: unique('Deletable chain'), trigger: { currency: 'EUR' }, steps: [{ requiredRoleIds: [await roleIdOf('admin')] }] }
      return created('/iam/v2/approval-chains', body, (json) => `/iam/v2/approval-chains/${json.id}`)
    },
    change: (n) => [{ op: 'replace', path: '/name', value: `Renamed chain ${n}` }],
  },
  {
    resource: 'bank connections',
    create: () => {
      const body = { type: 'FILES', name: unique('Deletable connection'), bank: { name: 'DKB', bic: 'BYLADEM1001' }, initiatingParty: { name: 'Acme GmbH' } }
      return created('/connectivity/v2/connections', body, (json) => `/connectivity/v2/connections/${json.id}`)
    },
    change: (n) => [{ op: 'replace', path: '/name', value: `Renamed connection ${n}` }],
  },
  {
    resource: 'entities',
    create: () => created('/financial-data/v2/entities', { legalName: unique('Deletable entity') }, (json) => `/financial-data/v2/entities/${json.id}`),
    change: (n) => [{ op: 'replace', path: '/legalName', value: `Renamed entity ${n}` }],
  },
  {
    resource: 'entities by external:{externalId}',
    create: () => {
      const externalId = unique('deletable-entity')
      return created('/financial-data/v2/entities', { legalName: 'Deletable entity', externalId }, () => `/financial-data/v2/entities/external:${externalId}`)
    },
    change: (n) => [{ op: 'replace', path: '/legalName', value: `Renamed entity ${n}` }],
  },
]

function remove(url: string, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return t.request({ method: 'DELETE', url, headers })
}

function patch(url: string, etag: string, operations: unknown): Promise<LightMyRequestResponse> {
  return t.request({ method: 'PATCH', url, body: JSON.stringify(operations), headers: { 'if-match': etag, 'content-type': 'application/json-patch+json' } })
}

async function current(url: string): Promise<LightMyRequestResponse> {
  return t.request({ method: 'GET', url })
}

describe.each(CASES)('DELETE $resource: If-Match required', ({ create, change }) => {
  it('answers 428 without If-Match, or with an empty one, and deletes nothing', async () => {
    const resource = await create()
    expectError(await remove(resource.url), 428, 'precondition_required')
    expectError(await remove(resource.url, { 'if-match': '' }), 428, 'precondition_required')
    const read = await current(resource.url)
    expect(read.statusCode, read.body).toBe(200)
    expect(read.json().etag).toBe(resource.etag)
  })

  it('answers 412 for a stale etag and deletes nothing; the current etag deletes (204, then 410)', async () => {
    const resource = await create()
    const changed = await patch(resource.url, resource.etag, change(1))
    expect(changed.statusCode, changed.body).toBe(200)
    expectError(await remove(resource.url, { 'if-match': resource.etag }), 412, 'precondition_failed')
    expect((await current(resource.url)).json().etag).toBe(changed.json().etag)
    const deleted = await remove(resource.url, { 'if-match': changed.json().etag })
    expect(deleted.statusCode, deleted.body).toBe(204)
    expectError(await current(resource.url), 410, 'gone')
  })

  it('compares verbatim: a quoted or weak etag is stale', async () => {
    const resource = await create()
    for (const value of [`"${resource.etag}"`, `W/"${resource.etag}"`, '*']) {
      expectError(await remove(resource.url, { 'if-match': value }), 412, 'precondition_failed')
    }
    expect((await current(resource.url)).statusCode).toBe(200)
  })

  it('PATCH racing DELETE from the same etag: exactly one wins, and a successful PATCH is never deleted', async () => {
    for (let round = 0; round < 5; round += 1) {
      const resource = await create()
      const [patched, deleted] = await Promise.all([patch(resource.url, resource.etag, change(round)), remove(resource.url, { 'if-match': resource.etag })])
      const read = await current(resource.url)
      if (patched.statusCode === 200) {
        expect(deleted.statusCode, deleted.body).toBe(412)
        expect(read.json().etag).toBe(patched.json().etag)
      } else {
        expect(deleted.statusCode, deleted.body).toBe(204)
        expect([410, 412], patched.body).toContain(patched.statusCode)
        expect(read.statusCode).toBe(410)
      }
    }
  })
})

describe('the OpenAPI document', () => {
  /** Access keys and webhook signing keys have no version; webhooks (reference §5.1, v1) have no etag and take no If-Match on PUT either. */
  const WITH_ETAG = [
    '/connectivity/v2/connections/{id}',
    '/financial-data/v2/entities/{id}',
    '/iam/v2/approval-chains/{id}',
    '/iam/v2/roles/{id}',
    '/iam/v2/users/{id}',
    '/payments/v2/counterparties/{id}',
    '/payments/v2/external-accounts/{id}',
  ]

  it('documents the If-Match header, 412 and 428 on the DELETE of every resource with an etag', async () => {
    interface Operation { parameters?: Array<{ name: string; in: string }>; responses: Record<string, unknown> }
    const document = (await t.request({ method: 'GET', url: '/openapi.json', as: null })).json<{ paths: Record<string, { delete?: Operation }> }>()
    const deletes = Object.entries(document.paths).flatMap(([path, operations]) => (operations.delete ? [{ path, operation: operations.delete }] : []))
    const conditional = deletes.filter(({ operation }) => operation.parameters?.some((p) => p.in === 'header' && p.name === 'if-match'))
    expect(conditional.map(({ path }) => path).sort()).toEqual(WITH_ETAG)
    for (const { path, operation } of conditional) {
      expect(Object.keys(operation.responses), path).toEqual(expect.arrayContaining(['204', '404', '410', '412', '428']))
    }
  })
})
