import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { oauth2Dialect } from './oauth2-errors.js'

describe('the token endpoint words its errors as RFC 6749 §5.2', () => {
  it('adds error and error_description to its own codes', () => {
    const spoken = oauth2Dialect(new ApiError('invalid_client', 'Wrong access key or secret'))
    expect(spoken.error.code).toBe('invalid_client')
    expect(spoken.fields).toEqual({ error: 'invalid_client', error_description: 'Wrong access key or secret' })
  })

  it('makes every refusal of the request itself a 400 invalid_request: validation, 413, 415, a pagination-style code', () => {
    for (const code of ['invalid_request', 'payload_too_large', 'unsupported_media_type', 'invalid_token'] as const) {
      const details = [{ code: 'required', field: 'grant_type', error: 'is required' }]
      const spoken = oauth2Dialect(new ApiError(code, 'Some refusal', details))
      expect(spoken.error).toMatchObject({ code: 'invalid_request', status: 400, message: 'Some refusal', details })
      expect(spoken.fields).toEqual({ error: 'invalid_request', error_description: 'Some refusal' })
    }
  })

  it("leaves Kassa's own refusals as every route answers them: 429, 503, 500", () => {
    for (const code of ['rate_limited', 'maintenance', 'internal_error'] as const) {
      const error = new ApiError(code)
      expect(oauth2Dialect(error)).toEqual({ error })
    }
  })

  it('keeps error_description to the characters RFC 6749 allows', () => {
    const spoken = oauth2Dialect(new ApiError('invalid_request', 'Not "this" \\ nor § … that'))
    expect(spoken.fields?.error_description).toBe("Not 'this' / nor ? ? that")
    expect(spoken.error.message).toBe('Not "this" \\ nor § … that')
  })
})
