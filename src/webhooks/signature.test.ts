import { describe, expect, it } from 'vitest'
import { newSigningKey, signatureHeader, signWebhookPayload, webhookTimestamp } from './signature.js'

/** reference §5.3: the published test vector. */
const VECTOR = {
  body: '{"hello":"\\u003eworld"}',
  timestamp: '2022-10-11T10:13:14.000000015Z',
  key: 'agj+xWKk3gqkP+SsCsljkjbDth7bxguqVMRd4K3wm1I=',
  signature: '267bbfaf0036e3a4f1dec8018679c9123b4142aa972bdc68116ad30b3bc28eae',
}

describe('webhook signatures', () => {
  it('reproduces the published test vector', () => {
    expect(VECTOR.body).toBe('{"hello":"\\u003eworld"}')
    expect(signWebhookPayload(VECTOR.body, VECTOR.timestamp, VECTOR.key)).toBe(VECTOR.signature)
    expect(signWebhookPayload(Buffer.from(VECTOR.body), VECTOR.timestamp, VECTOR.key)).toBe(VECTOR.signature)
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
