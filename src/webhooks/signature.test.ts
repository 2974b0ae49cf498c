import { describe, expect, it } from 'vitest'
import { newSigningKey, signatureHeader, signWebhookPayload, verifyWebhookSignature, webhookTimestamp } from './signature.js'

/** reference §5.3: the published test vector. */
const VECTOR = {
  body: '{"hello":"\\u003eworld"}',
  timestamp: '2022-10-11T10:13:14.000000015Z',
  key: 'agj+xWKk3gqkP+SsCsljkjbDth7bxguqVMRd4K3wm1I=',
  signature: '267bbfaf0036e3a4f1dec8018679c9123b4142aa972bdc68116ad30b3bc28eae',
}
const AT_VECTOR_TIME = new Date('2022-10-11T10:13:20Z')

describe('webhook signatures', () => {
  it('reproduces the published test vector', () => {
    expect(VECTOR.body).toBe('{"hello":"\\u003eworld"}')
    expect(signWebhookPayload(VECTOR.body, VECTOR.timestamp, VECTOR.key)).toBe(VECTOR.signature)
    expect(signWebhookPayload(Buffer.from(VECTOR.body), VECTOR.timestamp, VECTOR.key)).toBe(VECTOR.signature)
  })

  it('verifies the test vector, alone or beside another key’s signature', () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, keys: [VECTOR.key], now: AT_VECTOR_TIME }
    expect(verifyWebhookSignature({ ...base, signatureHeader: VECTOR.signature })).toBe(true)
    const other = signWebhookPayload(VECTOR.body, VECTOR.timestamp, newSigningKey())
    expect(verifyWebhookSignature({ ...base, signatureHeader: `${other},${VECTOR.signature}` })).toBe(true)
    expect(verifyWebhookSignature({ ...base, signatureHeader: VECTOR.signature.toUpperCase() })).toBe(true)
  })

  it('refuses a changed body, timestamp, key or signature', () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, signatureHeader: VECTOR.signature, keys: [VECTOR.key], now: AT_VECTOR_TIME }
    expect(verifyWebhookSignature({ ...base, body: '{"hello":">world"}' })).toBe(false)
    expect(verifyWebhookSignature({ ...base, timestamp: '2022-10-11T10:13:14.000000016Z' })).toBe(false)
    expect(verifyWebhookSignature({ ...base, keys: [newSigningKey()] })).toBe(false)
    expect(verifyWebhookSignature({ ...base, signatureHeader: `${VECTOR.signature.slice(0, 63)}0` })).toBe(false)
    expect(verifyWebhookSignature({ ...base, signatureHeader: '' })).toBe(false)
    expect(verifyWebhookSignature({ ...base, signatureHeader: undefined })).toBe(false)
    expect(verifyWebhookSignature({ ...base, timestamp: undefined })).toBe(false)
    expect(verifyWebhookSignature({ ...base, keys: [] })).toBe(false)
  })

  it('refuses timestamps outside the tolerance, either way, and ones that are not RFC 3339', () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, signatureHeader: VECTOR.signature, keys: [VECTOR.key] }
    expect(verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:18:14Z') })).toBe(true)
    expect(verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:18:15Z') })).toBe(false)
    expect(verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:08:13Z') })).toBe(false)
    expect(verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:20:00Z'), toleranceSeconds: 600 })).toBe(true)
    expect(verifyWebhookSignature({ ...base })).toBe(false)
    const unparsable = 'yesterday'
    const signed = signWebhookPayload(VECTOR.body, unparsable, VECTOR.key)
    expect(verifyWebhookSignature({ ...base, timestamp: unparsable, signatureHeader: signed })).toBe(false)
  })

  it('makes RFC 3339 timestamps with nanoseconds, and headers with one signature per key', () => {
    expect(webhookTimestamp(new Date('2022-10-11T10:13:14.000Z'), 15)).toBe(VECTOR.timestamp)
    expect(webhookTimestamp()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/)
    const keys = [newSigningKey(), newSigningKey()]
    expect(Buffer.from(keys[0]!, 'base64')).toHaveLength(32)
    const header = signatureHeader(VECTOR.body, VECTOR.timestamp, keys)
    expect(header.split(',')).toEqual(keys.map((key) => signWebhookPayload(VECTOR.body, VECTOR.timestamp, key)))
  })
})
