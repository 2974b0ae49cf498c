import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'

/** Shared steps of the IAM settings tests: roles, users, keys and approval chains over HTTP. */

export const ROLES = '/iam/v2/roles'
export const USERS = '/iam/v2/users'
export const CHAINS = '/iam/v2/approval-chains'
export const MISSING_ID = '01900000-0000-7000-8000-000000000000'

export interface RoleJson {
  id: string
  name: string
  description?: string
  builtin: boolean
  owner: boolean
  permissions: string[]
  version: number
  etag: string
}

export interface UserJson {
  id: string
  organizationId: string
  type: 'HUMAN' | 'PROGRAMMATIC'
  name: string
  email?: string
  roleId: string
  version: number
  etag: string
}

export interface NewKeyJson {
  id: string
  userId: string
  accessKey: string
  secret?: string
  created: string
}

/** A user of the organization with a key, ready for `t.request({as})`. */
export interface Member extends Credentials {
  roleId: string
}

export function expectStatus(response: LightMyRequestResponse, status: number): void {
  expect(response.statusCode, response.body).toBe(status)
}

/** A 4xx in the error envelope with `code`, whose details name `field` when given. */
export function expectError(response: LightMyRequestResponse, status: number, code: string, field?: string) {
  expectStatus(response, status)
  const body = response.json<{ code: string; message: string; details?: Array<{ field: string; error: string }> }>()
  expect(body.code, response.body).toBe(code)
  if (field !== undefined) expect(body.details?.map((detail) => detail.field), response.body).toContain(field)
  return body
}

export function patch(t: TestApp, url: string, etag: string, operations: unknown, as?: Credentials): Promise<LightMyRequestResponse> {
  return t.request({
    method: 'PATCH',
    url,
    body: JSON.stringify(operations),
    headers: { 'if-match': etag, 'content-type': 'application/json-patch+json' },
    as,
  })
}

/** DELETE with the etag as If-Match, which deleting requires like any update (428 without it). */
export function remove(t: TestApp, url: string, etag: string, as?: Credentials): Promise<LightMyRequestResponse> {
  return t.request({ method: 'DELETE', url, headers: { 'if-match': etag }, as })
}

/** The current etag of the resource at `url`, read with a GET (200). */
export async function currentEtag(t: TestApp, url: string, as?: Credentials): Promise<string> {
  const response = await t.request({ method: 'GET', url, as })
  expectStatus(response, 200)
  return response.json<{ etag: string }>().etag
}

export async function roleId(t: TestApp, name: string, as: Credentials = t.owner): Promise<string> {
  const response = await t.request({ method: 'GET', url: ROLES, as })
  expectStatus(response, 200)
  const role = response.json<{ items: RoleJson[] }>().items.find((item) => item.name === name)
  if (!role) throw new Error(`No role ${name}`)
  return role.id
}

export async function createRole(t: TestApp, name: string, permissions: string[], as: Credentials = t.owner): Promise<RoleJson> {
  const response = await t.request({ method: 'POST', url: ROLES, body: { name, permissions }, as })
  expectStatus(response, 201)
  return response.json<RoleJson>()
}

export async function createUser(t: TestApp, body: Record<string, unknown>, as: Credentials = t.owner): Promise<UserJson> {
  const response = await t.request({ method: 'POST', url: USERS, body, as })
  expectStatus(response, 201)
  return response.json<UserJson>()
}

export async function createKey(t: TestApp, userId: string, as: Credentials = t.owner): Promise<NewKeyJson> {
  const response = await t.request({ method: 'POST', url: `${USERS}/${userId}/access-keys`, as })
  expectStatus(response, 201)
  return response.json<NewKeyJson>()
}

/** A programmatic user with the role and a fresh access key, created through the API by `as`. */
export async function member(t: TestApp, roleIdToGive: string, name = 'API user', as: Credentials = t.owner): Promise<Member> {
  const user = await createUser(t, { type: 'PROGRAMMATIC', name, roleId: roleIdToGive }, as)
  const key = await createKey(t, user.id, as)
  return { organizationId: user.organizationId, userId: user.id, accessKey: key.accessKey, secret: key.secret!, role: name, roleId: roleIdToGive }
}
