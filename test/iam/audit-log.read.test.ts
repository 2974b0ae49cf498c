import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestApp, type TestApp } from '../support/test-app.js'
import { AUDIT_LOG, auditEntries, type AuditEntryJson } from './audit-log-helpers.js'
import { createRole, createUser, expectError, expectStatus, member, roleId } from './iam-helpers.js'

/**
 * Issue 13, reading the audit trail: GET /iam/v2beta/audit-log-entries (the list envelope, newest first, filters)
 * and /{id}; the permission audit_log:read; one organization's entries only; and no way to change or delete an
 * entry — neither a route nor, beneath it, SQL (triggers on both backends).
 */
let t: TestApp
let userIds: string[]

beforeAll(async () => {
  t = await startTestApp()
  const readOnly = await roleId(t, 'read-only')
  userIds = []
  for (const name of ['One', 'Two', 'Three']) {
    userIds.push((await createUser(t, { type: 'PROGRAMMATIC', name, roleId: readOnly })).id)
    // Each in a millisecond of its own, so the time filters below can tell them apart (a fast machine made two in one).
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
})
afterAll(() => t.close())

describe('the list', () => {
  it('answers the list envelope newest first, paging by nextToken without repeats', async () => {
    const first = await t.request({ method: 'GET', url: `${AUDIT_LOG}?action=users.create&limit=2` })
    expectStatus(first, 200)
    const page = first.json<{ items: AuditEntryJson[]; nextToken: string; token: string; limit: number }>()
    expect(page).toMatchObject({ token: '', limit: 2, nextToken: expect.any(String) })
    const second = await t.request({ method: 'GET', url: `${AUDIT_LOG}?action=users.create&limit=2&token=${page.nextToken}` })
    expectStatus(second, 200)
    const ids = [...page.items, ...second.json<{ items: AuditEntryJson[] }>().items].map((entry) => entry.resource.id)
    // The three users made here, newest first, then the Owner's programmatic user the organization was made with.
    expect(ids).toEqual([...[...userIds].reverse(), t.owner.userId])
  })

  it('filters by resource, action, actor and time', async () => {
    expect((await auditEntries(t, { resourceType: 'users', resourceId: userIds[1]! })).map((entry) => entry.action)).toEqual(['users.create'])
    const byOwner = await auditEntries(t, { actorUserId: t.owner.userId })
    expect(byOwner.length).toBeGreaterThanOrEqual(3)
    expect(byOwner.every((entry) => entry.actor.userId === t.owner.userId)).toBe(true)
    const byKey = await auditEntries(t, { actorAccessKeyId: byOwner[0]!.actor.accessKeyId! })
    expect(byKey.map((entry) => entry.id)).toEqual(byOwner.map((entry) => entry.id))

    const all = await auditEntries(t)
    const middle = all.find((entry) => entry.resource.id === userIds[1])!
    const upTo = await auditEntries(t, { 'created[lte]': middle.created })
    expect(upTo.map((entry) => entry.id)).toContain(middle.id)
    expect(upTo.every((entry) => entry.created <= middle.created)).toBe(true)
    expect(upTo.length).toBeLessThan(all.length)
    const from = await auditEntries(t, { 'created[gte]': middle.created })
    expect(from.map((entry) => entry.id)).toContain(middle.id)
    expect(from.every((entry) => entry.created >= middle.created)).toBe(true)
    expect(await auditEntries(t, { 'created[gte]': '2999-01-01T00:00:00Z' })).toEqual([])
  })

  it('refuses unknown filters and an inverted range with a 400', async () => {
    expectError(await t.request({ method: 'GET', url: `${AUDIT_LOG}?colour=red` }), 400, 'invalid_request')
    expectError(await t.request({ method: 'GET', url: `${AUDIT_LOG}?created[gte]=2026-02-01T00:00:00Z&created[lte]=2026-01-01T00:00:00Z` }), 400, 'invalid_request', 'created[gte]')
    expectError(await t.request({ method: 'GET', url: `${AUDIT_LOG}?created[gte]=yesterday` }), 400, 'invalid_request')
  })

  it('gets one entry by id; another organization neither lists nor gets it', async () => {
    const [newest] = await auditEntries(t)
    const got = await t.request({ method: 'GET', url: `${AUDIT_LOG}/${newest!.id}` })
    expectStatus(got, 200)
    expect(got.json()).toEqual(newest)

    const other = await t.newOrganization()
    expectError(await t.request({ method: 'GET', url: `${AUDIT_LOG}/${newest!.id}`, as: other }), 404, 'not_found')
    const theirs = await auditEntries(t, {}, other)
    expect(theirs.length).toBeGreaterThan(0)
    expect(theirs.every((entry) => entry.organizationId === other.organizationId)).toBe(true)
    expect(await auditEntries(t, { resourceId: userIds[0]! }, other)).toEqual([])
  })

  it('needs audit_log:read: the built-in roles have it, a role without it gets 403', async () => {
    expectStatus(await t.request({ method: 'GET', url: AUDIT_LOG, as: await t.newKey('read-only') }), 200)
    const role = await createRole(t, 'Clerk', ['users:read'])
    const clerk = await member(t, role.id, 'Clerk')
    expectError(await t.request({ method: 'GET', url: AUDIT_LOG, as: clerk }), 403, 'forbidden')
    expectError(await t.request({ method: 'GET', url: AUDIT_LOG, as: null }), 401, 'unauthorized')
  })
})

describe('append-only', () => {
  it('has no route that creates, changes or deletes an entry', async () => {
    const [entry] = await auditEntries(t)
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expectStatus(await t.request({ method, url: AUDIT_LOG, body: method === 'DELETE' ? undefined : {} }), 405)
      expectStatus(await t.request({ method, url: `${AUDIT_LOG}/${entry!.id}`, body: method === 'DELETE' ? undefined : {} }), 405)
    }
    expect(await auditEntries(t, { resourceId: entry!.resource.id })).toContainEqual(entry)
  })

  it('refuses UPDATE and DELETE in the database itself', async () => {
    const { db } = t.db.database
    const [entry] = await auditEntries(t)
    await expect(db.updateTable('audit_log_entries').set({ action: 'forged' }).where('id', '=', entry!.id).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('audit_log_entries').where('id', '=', entry!.id).execute()).rejects.toThrow(/append-only/)
    await expect(db.deleteFrom('audit_log_entries').execute()).rejects.toThrow(/append-only/)
    if (t.db.database.dialect === 'postgres') await expect(sql`truncate audit_log_entries`.execute(db)).rejects.toThrow(/append-only/)
    const row = await db.selectFrom('audit_log_entries').select('action').where('id', '=', entry!.id).executeTakeFirstOrThrow()
    expect(row.action).toBe(entry!.action)
  })
})
