import { sql, type Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.js'
import { migrateTo } from '../../src/db/migrate.js'
import type { ApiApp } from '../../src/http/api-app.js'
import { createAccessKey, type Credentials } from '../../src/iam/index.js'
import { newId } from '../../src/shared/ids.js'
import { basicAuth } from '../support/test-app.js'
import { createTestDatabase, type TestDatabase } from '../support/test-database.js'

/**
 * Migration 0018 on a database 0017 left: every organization gets one entity named as it, which all its accounts
 * then belong to; an organization with a sandbox bank gets the bank's own SANDBOX connection, which the bank's own
 * accounts (and only they) name as thirdPartyId; the built-in roles get the entity permissions.
 */
let db: TestDatabase
let app: ApiApp
let owner: Credentials
let readOnly: Credentials

const NOW = '2025-06-16T10:00:00.000Z'
const SANDBOX_ORG = '01978a3c-0000-7000-8000-000000000001'
const LIVE_ORG = '01978a3c-0000-7000-8000-000000000002'
const SANDBOX_ACCOUNT = '01978a3c-0000-7000-8000-0000000000a1'
const REGISTERED_ACCOUNT = '01978a3c-0000-7000-8000-0000000000a2'
const OLD_PERMISSIONS = ['accounts:read', 'accounts:update', 'connections:read', 'connections:create', 'connections:update', 'connections:delete']

async function organizationBefore0018(trx: Kysely<unknown>, id: string, name: string, environment: string): Promise<void> {
  await sql`insert into organizations (id, name, environment, created) values (${id}, ${name}, ${environment}, ${NOW})`.execute(trx)
  for (const [builtin, permissions] of [['owner', OLD_PERMISSIONS], ['admin', OLD_PERMISSIONS], ['read-only', ['accounts:read', 'connections:read']]] as const) {
    await sql`
      insert into roles (id, organization_id, name, builtin, owner, permissions, version, created, updated)
      values (${newId()}, ${id}, ${builtin}, ${builtin}, ${builtin === 'owner' ? 1 : 0}, ${JSON.stringify(permissions)}, 1, ${NOW}, ${NOW})`.execute(trx)
  }
}

async function accountBefore0018(trx: Kysely<unknown>, id: string, organizationId: string, iban: string, bank: { name: string; bic: string }, fictive: number): Promise<void> {
  await sql`
    insert into accounts (id, organization_id, external_id, name, alias, market, currency, bank_name, bic, identifiers, fictive, metadata, version, created, updated, connection_id)
    values (${id}, ${organizationId}, null, 'Account', null, 'DE', 'EUR', ${bank.name}, ${bank.bic}, ${JSON.stringify([{ market: 'DE', type: 'IBAN', number: iban }])},
      ${fictive}, '{}', 1, ${NOW}, ${NOW}, null)`.execute(trx)
}

beforeAll(async () => {
  db = await createTestDatabase({ migrate: false })
  const raw = db.database.db as unknown as Kysely<unknown>
  await migrateTo(raw, '0017-oauth2-access-tokens')
  await organizationBefore0018(raw, SANDBOX_ORG, 'Made before 0018', 'SANDBOX')
  await organizationBefore0018(raw, LIVE_ORG, 'Live before 0018', 'LIVE')
  await sql`insert into sandbox_banks (organization_id, today, version, created, updated) values (${SANDBOX_ORG}, '2025-06-16', 1, ${NOW}, ${NOW})`.execute(raw)
  await accountBefore0018(raw, SANDBOX_ACCOUNT, SANDBOX_ORG, 'DE02500105170000000001', { name: 'Kassa Testbank', bic: 'KASADEFFXXX' }, 1)
  await sql`insert into sandbox_accounts (account_id, organization_id, opening_balance, opening_date, created) values (${SANDBOX_ACCOUNT}, ${SANDBOX_ORG}, 100, '2025-06-16', ${NOW})`.execute(raw)
  await accountBefore0018(raw, REGISTERED_ACCOUNT, SANDBOX_ORG, 'DE02120300000000202051', { name: 'Deutsche Kreditbank', bic: 'BYLADEM1001' }, 0)
  await db.database.migrate()
  app = await buildApp({
    config: { rateLimitPerMinute: 100_000, maintenance: false, logLevel: 'silent' },
    database: db.database,
    paymentWorkerIntervalMilliseconds: false,
    webhooks: { startWorker: false },
  })
  owner = await createAccessKey(db.database, SANDBOX_ORG, 'owner')
  readOnly = await createAccessKey(db.database, SANDBOX_ORG, 'read-only')
})
afterAll(async () => {
  await app?.close()
  await db.destroy()
})

async function get<T>(url: string, as: Credentials = owner): Promise<T> {
  const response = await app.inject({ method: 'GET', url, headers: { authorization: basicAuth(as) } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<T>()
}

describe('migration 0018', () => {
  it('gives each organization one entity, named as it, and its accounts to that entity', async () => {
    const entities = await get<{ items: { id: string; legalName: string }[] }>('/financial-data/v2/entities')
    expect(entities.items.map((entity) => entity.legalName)).toEqual(['Made before 0018'])
    const accounts = await get<{ items: { id: string; entityId: string }[] }>('/financial-data/v2/accounts')
    expect(accounts.items.map((account) => [account.id, account.entityId])).toEqual([
      [SANDBOX_ACCOUNT, entities.items[0]!.id],
      [REGISTERED_ACCOUNT, entities.items[0]!.id],
    ])
    const live = await db.database.db.selectFrom('entities').select(['legal_name', 'parent_id']).where('organization_id', '=', LIVE_ORG).execute()
    expect(live).toEqual([{ legal_name: 'Live before 0018', parent_id: null }])
  })

  it("gives an organization with a sandbox bank the bank's SANDBOX connection, named by the bank's own accounts only", async () => {
    const connections = await get<{ items: { id: string; type: string; bank: { name: string; bic: string } }[] }>('/connectivity/v2/connections')
    expect(connections.items).toEqual([expect.objectContaining({ type: 'SANDBOX', bank: { name: 'Kassa Testbank', bic: 'KASADEFFXXX' } })])
    const sandboxAccount = await get<{ thirdPartyId: string; affiliationId: string; routing: unknown[] }>(`/financial-data/v2/accounts/${SANDBOX_ACCOUNT}`)
    expect(sandboxAccount).toMatchObject({ thirdPartyId: connections.items[0]!.id, routing: [{ type: 'BIC', number: 'KASADEFFXXX' }] })
    const registered = await get<{ thirdPartyId: string; affiliationId: string }>(`/financial-data/v2/accounts/${REGISTERED_ACCOUNT}`)
    expect(registered.thirdPartyId).not.toBe(connections.items[0]!.id)
    expect(registered.affiliationId).not.toBe(sandboxAccount.affiliationId)
    const liveConnections = await db.database.db.selectFrom('bank_connections').select('id').where('organization_id', '=', LIVE_ORG).execute()
    expect(liveConnections).toEqual([])
  })

  it('grants the built-in roles the entity permissions: owner and admin all four, read-only entities:read', async () => {
    const roles = await db.database.db.selectFrom('roles').select(['builtin', 'permissions']).where('organization_id', '=', SANDBOX_ORG).orderBy('builtin').execute()
    const granted = Object.fromEntries(roles.map((role) => [role.builtin, (JSON.parse(role.permissions) as string[]).filter((permission) => permission.startsWith('entities:'))]))
    const all = ['entities:read', 'entities:create', 'entities:update', 'entities:delete']
    expect(granted).toEqual({ admin: all, owner: all, 'read-only': ['entities:read'] })
    expect((await get<{ items: unknown[] }>('/financial-data/v2/entities', readOnly)).items).toHaveLength(1)
  })
})
