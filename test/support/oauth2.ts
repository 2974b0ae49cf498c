import type { LightMyRequestResponse } from 'fastify'
import { expect } from 'vitest'
import type { Credentials } from '../../src/iam/index.js'
import { basicAuth, type TestApp } from './test-app.js'

/** The OAuth2 token endpoint (issue 13) under the reference's two names. */
export const TOKEN_PATH = '/iam/v2beta/oauth2/token'
export const TOKEN_PATH_V2 = '/iam/v2/oauth2/token'

export interface TokenRequestOptions {
  /** The form's parameters, form-encoded as given (a string is sent as it is). */
  form?: Record<string, string> | string
  headers?: Record<string, string>
  url?: string
  /** The client's address (the lockout counts per address); 127.0.0.1 unless given. */
  remoteAddress?: string
}

/** POST to the token endpoint, form-encoded unless the headers say otherwise, with no credentials but those given. */
export function requestToken(t: TestApp, { form = {}, headers = {}, url = TOKEN_PATH, remoteAddress }: TokenRequestOptions): Promise<LightMyRequestResponse> {
  const payload = typeof form === 'string' ? form : new URLSearchParams(form).toString()
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload,
    ...(remoteAddress === undefined ? {} : { remoteAddress }),
  })
}

/** A bearer token for the key, asked for by HTTP Basic (client_secret_basic). */
export async function accessTokenFor(t: TestApp, credentials: Pick<Credentials, 'accessKey' | 'secret'>): Promise<string> {
  const response = await requestToken(t, { form: { grant_type: 'client_credentials' }, headers: { authorization: basicAuth(credentials) } })
  expect(response.statusCode, response.body).toBe(200)
  return response.json<{ access_token: string }>().access_token
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` }
}
