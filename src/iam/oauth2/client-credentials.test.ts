import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { clientCredentialsOf } from './client-credentials.js'

function basic(raw: string): string {
  return `Basic ${Buffer.from(raw).toString('base64')}`
}

function refusal(run: () => unknown): { code: string; status: number } {
  try {
    run()
  } catch (error) {
    if (error instanceof ApiError) return { code: error.code, status: error.status }
    throw error
  }
  throw new Error('not refused')
}

describe('client credentials of a token request (RFC 6749 §2.3)', () => {
  it('reads HTTP Basic (client_secret_basic), the scheme in any case', () => {
    expect(clientCredentialsOf(basic('KAKEY:s3cret'), {})).toEqual({ accessKey: 'KAKEY', secret: 's3cret' })
    expect(clientCredentialsOf(basic('KAKEY:s3cret').replace('Basic', 'bAsIc'), {})).toEqual({ accessKey: 'KAKEY', secret: 's3cret' })
  })

  it('form-decodes the Basic user and password (§2.3.1), a colon in the secret kept', () => {
    expect(clientCredentialsOf(basic('KA%4BEY:a%2Bb+c:d'), {})).toEqual({ accessKey: 'KAKEY', secret: 'a+b c:d' })
  })

  it('reads the form fields (client_secret_post)', () => {
    expect(clientCredentialsOf(undefined, { client_id: 'KAKEY', client_secret: 's3cret' })).toEqual({ accessKey: 'KAKEY', secret: 's3cret' })
  })

  it('allows a client_id beside Basic credentials only when it names the same key', () => {
    expect(clientCredentialsOf(basic('KAKEY:s3cret'), { client_id: 'KAKEY' })).toEqual({ accessKey: 'KAKEY', secret: 's3cret' })
    expect(refusal(() => clientCredentialsOf(basic('KAKEY:s3cret'), { client_id: 'KAOTHER' }))).toEqual({ code: 'invalid_request', status: 400 })
  })

  it('refuses both methods at once with invalid_request (400)', () => {
    expect(refusal(() => clientCredentialsOf(basic('KAKEY:s3cret'), { client_id: 'KAKEY', client_secret: 's3cret' }))).toEqual({ code: 'invalid_request', status: 400 })
  })

  it.each([
    ['nothing', undefined, {}],
    ['a client_id alone', undefined, { client_id: 'KAKEY' }],
    ['a client_secret alone', undefined, { client_secret: 's3cret' }],
    ['another scheme', 'Bearer abc', {}],
    ['a scheme alone', 'Basic', {}],
    ['Basic without a colon', basic('KAKEY'), {}],
    ['Basic with an empty user', basic(':s3cret'), {}],
    ['Basic with a malformed percent-encoding', basic('KA%ZZ:s3cret'), {}],
  ])('refuses %s with invalid_client (401)', (_, authorization, form) => {
    expect(refusal(() => clientCredentialsOf(authorization, form))).toEqual({ code: 'invalid_client', status: 401 })
  })
})
