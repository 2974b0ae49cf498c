import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import { createPerson } from '../../src/iam/index.js'
import type { TestApp } from '../support/test-app.js'
import { expectStatus } from './iam-helpers.js'

/** Shared steps of the sign-in tests: people with passwords, sign-in, and requests made with the session cookie. */

export const SESSION = '/iam/v2/session'
export const SIGN_OUT = '/iam/v2/session:signOut'
export const CHANGE_PASSWORD = '/iam/v2/session/password:change'
/** The Host every session request is sent to, and so the origin of "this server's own pages". */
export const HOST = 'kassa.test'
export const OWN_ORIGIN = `http://${HOST}`
export const PASSWORD = 'violet kettle drums at noon'

export interface Person {
  organizationId: string
  userId: string
  email: string
  password: string
}

export interface SignedIn {
  /** The cookie's value: the session token. */
  token: string
  setCookie: string
  body: SessionJson
}

export interface SessionJson {
  id: string
  organizationId: string
  user: { id: string; email: string; type: string }
  role: { id: string; name: string; owner: boolean }
  permissions: string[]
  csrfToken: string
  secondFactor: boolean
  totpEnabled: boolean
  passwordChangeRequired: boolean
  approvalsRequireSecondFactor: boolean
  created: string
  lastSeen: string
  expires: string
  idleExpires: string
}

let people = 0

/** A HUMAN user with a password and a built-in role, made as `kassa users create` makes one. */
export async function person(t: TestApp, roleName: string, options: { organizationId?: string; email?: string; password?: string } = {}): Promise<Person> {
  people += 1
  const organizationId = options.organizationId ?? t.owner.organizationId
  const email = options.email ?? `person${people}.${Date.now()}@example.com`
  const password = options.password ?? PASSWORD
  const user = await createPerson(t.db.database, { organizationId, name: `Person ${people}`, email, roleName }, password)
  return { organizationId, userId: user.id, email, password }
}

export interface SignInOptions {
  password?: string
  totp?: string
  organizationId?: string
  remoteAddress?: string
  headers?: Record<string, string>
}

export function signInRequest(t: Pick<TestApp, 'app'>, email: string, options: SignInOptions & { password: string }): Promise<LightMyRequestResponse> {
  const body = {
    email,
    password: options.password,
    ...(options.totp !== undefined ? { totp: options.totp } : {}),
    ...(options.organizationId !== undefined ? { organizationId: options.organizationId } : {}),
  }
  return t.app.inject({
    method: 'POST',
    url: SESSION,
    headers: { host: HOST, 'content-type': 'application/json', 'user-agent': 'session-test', ...options.headers },
    payload: JSON.stringify(body),
    ...(options.remoteAddress !== undefined ? { remoteAddress: options.remoteAddress } : {}),
  })
}

/** The session token a Set-Cookie header sets. */
export function tokenOf(setCookie: string): string {
  const match = /^kassa_session=([A-Za-z0-9_-]+);/.exec(setCookie)
  if (!match) throw new Error(`No session cookie in ${setCookie}`)
  return match[1]!
}

export async function signIn(t: Pick<TestApp, 'app'>, who: Pick<Person, 'email' | 'password'>, options: SignInOptions = {}): Promise<SignedIn> {
  const response = await signInRequest(t, who.email, { ...options, password: options.password ?? who.password })
  expectStatus(response, 201)
  const setCookie = String(response.headers['set-cookie'])
  return { token: tokenOf(setCookie), setCookie, body: response.json<SessionJson>() }
}

export interface SessionRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE'
  url: string
  body?: unknown
  headers?: Record<string, string>
  /** false: leave the CSRF token out; a string: send that instead of the session's. */
  csrf?: boolean | string
  /** null: no Origin header. */
  origin?: string | null
}

/**
 * A request as the dashboard makes it: the session cookie, and on writes the CSRF token and this server's
 * Origin (each can be left out or changed to test the refusals).
 */
export function asSession(t: Pick<TestApp, 'app'>, session: SignedIn, request: SessionRequest): Promise<LightMyRequestResponse> {
  const write = request.method !== 'GET'
  const csrf = request.csrf === undefined || request.csrf === true ? session.body.csrfToken : request.csrf
  const origin = request.origin === undefined ? OWN_ORIGIN : request.origin
  const headers: Record<string, string> = {
    host: HOST,
    cookie: `theme=dark; kassa_session=${session.token}`,
    ...(write && typeof csrf === 'string' ? { 'x-csrf-token': csrf } : {}),
    ...(write && origin !== null ? { origin } : {}),
    ...(request.body !== undefined && typeof request.body !== 'string' ? { 'content-type': 'application/json' } : {}),
    ...request.headers,
  }
  return t.app.inject({
    method: request.method,
    url: request.url,
    headers,
    ...(request.body === undefined ? {} : { payload: typeof request.body === 'string' ? request.body : JSON.stringify(request.body) }),
  })
}

/** The sessions table's row of a session, read straight from the database. */
export async function sessionRow(t: TestApp, id: string) {
  return t.db.database.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function sessionCount(t: TestApp, userId: string): Promise<number> {
  const rows = await t.db.database.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()
  return rows.length
}

export function expectSessionOf(response: LightMyRequestResponse, who: Pick<Person, 'userId'>): SessionJson {
  expectStatus(response, 200)
  const body = response.json<SessionJson>()
  expect(body.user.id).toBe(who.userId)
  return body
}
