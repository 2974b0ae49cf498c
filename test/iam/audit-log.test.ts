import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { recordAuditEntry } from '../../src/iam/index.js'
import { counterpartyBody } from '../support/fixtures.js'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { CONNECTIONS, connectionBody } from '../connectivity/connection-helpers.js'
import { auditEntries, entryOf } from './audit-log-helpers.js'
import { CHAINS, ROLES, USERS, createUser, expectStatus, patch, remove, roleId } from './iam-helpers.js'
import { person, signIn, signInRequest } from './session-helpers.js'

/**
 * Issue 13, the audit trail: each change writes exactly one entry, in its transaction, with the actor, the
 * request's request-id and the resource before and after; failed changes write none; secrets never appear.
 */
let t: TestApp

beforeAll(async () => {
  t = await startTestApp({ webhookAllowLoopback: true, paymentWorkerIntervalMilliseconds: false })
})
afterAll(() => t.close())

describe('settings changes', () => {
  it('users: create, update, delete — each one entry with before and after', async () => {
    const readOnly = await roleId(t, 'read-only')
    const created = await t.request({ method: 'POST', url: USERS, body: { type: 'HUMAN', name: 'Ada', email: 'ada@example.com', roleId: readOnly } })
    expectStatus(created, 201)
    const user = created.json<{ id: string; etag: string }>()
    const creation = await entryOf(t, created, 'users.create', user.id)
    expect(creation).toMatchObject({ actor: { type: 'ACCESS_KEY', accessKeyId: expect.any(String) }, resource: { type: 'users' }, after: { name: 'Ada' } })
    expect(creation.before).toBeUndefined()

    const patched = await patch(t, `${USERS}/${user.id}`, user.etag, [{ op: 'replace', path: '/name', value: 'Ada L.' }])
    expectStatus(patched, 200)
    const update = await entryOf(t, patched, 'users.update', user.id)
    expect(update).toMatchObject({ before: { name: 'Ada', version: 1 }, after: { name: 'Ada L.', version: 2 } })

    const removed = await remove(t, `${USERS}/${user.id}`, patched.json<{ etag: string }>().etag)
    expectStatus(removed, 204)
    const deletion = await entryOf(t, removed, 'users.delete', user.id)
    expect(deletion.before).toMatchObject({ name: 'Ada L.' })
    expect(deletion.after).toBeUndefined()
  })

  it('roles and approval chains: create and update', async () => {
    const created = await t.request({ method: 'POST', url: ROLES, body: { name: 'Auditors', permissions: ['audit_log:read'] } })
    expectStatus(created, 201)
    const role = created.json<{ id: string; etag: string }>()
    expect((await entryOf(t, created, 'roles.create', role.id)).after).toMatchObject({ name: 'Auditors', permissions: ['audit_log:read'] })
    const renamed = await patch(t, `${ROLES}/${role.id}`, role.etag, [{ op: 'replace', path: '/name', value: 'Internal audit' }])
    expectStatus(renamed, 200)
    expect(await entryOf(t, renamed, 'roles.update', role.id)).toMatchObject({ before: { name: 'Auditors' }, after: { name: 'Internal audit' } })

    const chain = await t.request({ method: 'POST', url: CHAINS, body: { name: 'Big payments', trigger: { currency: 'EUR' }, steps: [{ requiredRoleIds: [await roleId(t, 'owner')] }] } })
    expectStatus(chain, 201)
    await entryOf(t, chain, 'approval_chains.create', chain.json<{ id: string }>().id)
  })

  it('connections: create', async () => {
    const created = await t.request({ method: 'POST', url: CONNECTIONS, body: connectionBody() })
    expectStatus(created, 201)
    await entryOf(t, created, 'connections.create', created.json<{ id: string }>().id)
  })

  it('a refused change writes nothing', async () => {
    const limited = await t.newKey('read-only')
    const before = (await auditEntries(t)).length
    expectStatus(await t.request({ method: 'POST', url: ROLES, body: { name: 'Nope', permissions: ['users:read'] }, as: limited }), 403)
    expectStatus(await patch(t, `${ROLES}/${await roleId(t, 'owner')}`, 'version:1', [{ op: 'replace', path: '/name', value: 'x' }]), 409)
    // Only the read-only key's first use was logged.
    expect((await auditEntries(t)).slice(0, -before || undefined).map((entry) => entry.action)).toEqual(['access_keys.first_use'])
  })

  it('an entry written in a transaction that rolls back is gone with it', async () => {
    const context = { actor: { type: 'SYSTEM' as const, organizationId: t.owner.organizationId } }
    await expect(
      t.db.database.transaction(async (trx) => {
        await recordAuditEntry(trx, context, { action: 'users.update', resourceType: 'users', resourceId: 'rolled-back' })
        throw new Error('the change failed')
      }),
    ).rejects.toThrow('the change failed')
    expect(await auditEntries(t, { resourceId: 'rolled-back' })).toEqual([])
  })
})

describe('access keys and secrets', () => {
  it('logs creation, the first use once, and revocation — never the secret', async () => {
    const user = await createUser(t, { type: 'PROGRAMMATIC', name: 'ERP', roleId: await roleId(t, 'read-only') })
    const createdResponse = await t.request({ method: 'POST', url: `${USERS}/${user.id}/access-keys` })
    expectStatus(createdResponse, 201)
    const key = createdResponse.json<{ id: string; accessKey: string; secret: string }>()
    expect((await entryOf(t, createdResponse, 'access_keys.create', key.id)).after).toMatchObject({ accessKey: key.accessKey })

    const asKey = { organizationId: t.owner.organizationId, userId: user.id, accessKey: key.accessKey, secret: key.secret, role: 'read-only' }
    const first = await t.request({ method: 'GET', url: USERS, as: asKey })
    expectStatus(first, 200)
    for (let i = 0; i < 3; i += 1) expectStatus(await t.request({ method: 'GET', url: ROLES, as: asKey }), 200)
    const uses = await auditEntries(t, { action: 'access_keys.first_use', resourceId: key.id })
    expect(uses).toHaveLength(1)
    expect(uses[0]).toMatchObject({ actor: { type: 'ACCESS_KEY', accessKeyId: key.id, userId: user.id }, requestId: first.headers['request-id'] })

    const revoked = await t.request({ method: 'DELETE', url: `${USERS}/${user.id}/access-keys/${key.id}` })
    expectStatus(revoked, 204)
    await entryOf(t, revoked, 'access_keys.revoke', key.id)

    const webhook = await t.request({ method: 'POST', url: '/v1/webhooks', body: { url: 'http://127.0.0.1:9/hook', filter: [{ resource: 'credit_transfers', apiVersion: 2 }] } })
    expectStatus(webhook, 201)
    const { keys } = webhook.json<{ id: string; keys: Array<{ signingKey: string }> }>()
    await entryOf(t, webhook, 'webhooks.create', webhook.json<{ id: string }>().id)

    const everything = JSON.stringify(await auditEntries(t))
    expect(everything).not.toContain(key.secret)
    expect(everything).not.toContain(t.owner.secret)
    expect(keys[0]!.signingKey).toEqual(expect.any(String))
    expect(everything).not.toContain(keys[0]!.signingKey)
    expect(everything).toContain('[REDACTED]')
  })
})

describe('approvals and sign-ins', () => {
  it('logs approving and rejecting a credit transfer with the payment before and after', async () => {
    const accounts = (await t.request({ method: 'GET', url: '/financial-data/v2/accounts?currency=EUR' })).json<{ items: Array<{ id: string }> }>()
    const counterparty = (await t.request({ method: 'POST', url: '/payments/v2/counterparties', body: counterpartyBody() })).json<{ accounts: Array<{ id: string }> }>()
    const today = (await t.request({ method: 'GET', url: '/v1/sandbox/clock' })).json<{ today: string }>().today
    const transfer = async () => {
      const body = { amount: { currency: 'EUR', value: 4_200 }, date: today, scheme: 'SCT', source: { type: 'ACCOUNT', id: accounts.items[0]!.id }, destination: { type: 'EXTERNAL_ACCOUNT', id: counterparty.accounts[0]!.id }, reference: 'Audit' }
      const created = await t.request({ method: 'POST', url: '/payments/v2/credit-transfers', body })
      expectStatus(created, 201)
      return created.json<{ id: string; approvalSteps: Array<{ id: string }> }>()
    }
    // Another Owner approves: the creator may not (the chain made above names the owner role).
    const approver = await t.newKey('owner')
    const one = await transfer()
    const approved = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${one.id}:approve`, body: { approvalStepId: one.approvalSteps[0]!.id }, as: approver })
    expectStatus(approved, 202)
    expect(await entryOf(t, approved, 'credit_transfers.approve', one.id, { actorUserId: approver.userId })).toMatchObject({ resource: { type: 'credit_transfers' }, before: { status: 'CREATED' }, after: { status: 'APPROVED' } })

    const two = await transfer()
    const rejected = await t.request({ method: 'POST', url: `/payments/v2/credit-transfers/${two.id}:reject`, body: { reason: 'Duplicate' } })
    expectStatus(rejected, 202)
    expect(await entryOf(t, rejected, 'credit_transfers.reject', two.id)).toMatchObject({ before: { status: 'CREATED' }, after: { status: 'REJECTED' } })
  })

  it('logs a sign-in as the session, a failure for a known email in its organization, and nothing for an unknown one', async () => {
    const someone = await person(t, 'admin')
    const session = await signIn(t, someone)
    const [signedIn] = await auditEntries(t, { action: 'sign_in.succeeded', actorUserId: someone.userId })
    expect(signedIn).toMatchObject({ actor: { type: 'USER', userId: someone.userId, sessionId: session.body.id }, resource: { type: 'sessions', id: session.body.id } })
    expect(signedIn!.clientAddress).toBeDefined()

    const wrong = await signInRequest(t, someone.email, { password: 'not the password at all' })
    expectStatus(wrong, 401)
    const failures = await auditEntries(t, { action: 'sign_in.failed' })
    expect(failures).toHaveLength(1)
    expect(failures[0]).toMatchObject({ actor: { type: 'USER', userId: someone.userId }, resource: { type: 'users', id: someone.userId }, requestId: wrong.headers['request-id'] })

    const total = await t.db.database.db.selectFrom('audit_log_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expectStatus(await signInRequest(t, 'nobody@example.com', { password: 'not the password at all' }), 401)
    const after = await t.db.database.db.selectFrom('audit_log_entries').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()
    expect(Number(after.n)).toBe(Number(total.n))
  })
})
