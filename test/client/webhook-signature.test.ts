import { describe, expect, it } from 'vitest'
import { verifyWebhookSignature as fromClientPackage } from '@kassa/client'
import { verifyWebhookSignature } from '../../packages/client/src/index.js'
import { verifyWebhookSignature as fromServerPackage } from '../../src/index.js'
import { newSigningKey, signWebhookPayload } from '../../src/webhooks/signature.js'

/** The client's verifier against the published vector and the server's own signer (reference §5.3). */
const VECTOR = {
  body: '{"hello":"\\u003eworld"}',
  timestamp: '2022-10-11T10:13:14.000000015Z',
  key: 'agj+xWKk3gqkP+SsCsljkjbDth7bxguqVMRd4K3wm1I=',
  signature: '267bbfaf0036e3a4f1dec8018679c9123b4142aa972bdc68116ad30b3bc28eae',
}
const AT_VECTOR_TIME = new Date('2022-10-11T10:13:20Z')

describe('verifyWebhookSignature', () => {
  it('verifies the test vector, as text or bytes, alone or beside another key’s signature, in either case', async () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, keys: [VECTOR.key], now: AT_VECTOR_TIME }
    expect(await verifyWebhookSignature({ ...base, signatureHeader: VECTOR.signature })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, body: new TextEncoder().encode(VECTOR.body), signatureHeader: VECTOR.signature })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, body: Buffer.from(VECTOR.body), signatureHeader: VECTOR.signature })).toBe(true)
    const other = signWebhookPayload(VECTOR.body, VECTOR.timestamp, newSigningKey())
    expect(await verifyWebhookSignature({ ...base, signatureHeader: `${other},${VECTOR.signature}` })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: ` ${other} , ${VECTOR.signature} ` })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: VECTOR.signature.toUpperCase() })).toBe(true)
  })

  it('verifies with any of the keys during a rotation, and what the server signs', async () => {
    const rotated = newSigningKey()
    const body = '{"event":{"name":"CREATED"}}'
    const signature = signWebhookPayload(body, VECTOR.timestamp, rotated)
    const base = { body, timestamp: VECTOR.timestamp, signatureHeader: signature, now: AT_VECTOR_TIME }
    expect(await verifyWebhookSignature({ ...base, keys: [VECTOR.key, rotated] })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, keys: [rotated, VECTOR.key] })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, keys: [VECTOR.key] })).toBe(false)
  })

  it('refuses a changed body, timestamp, key or signature', async () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, signatureHeader: VECTOR.signature, keys: [VECTOR.key], now: AT_VECTOR_TIME }
    expect(await verifyWebhookSignature({ ...base, body: '{"hello":">world"}' })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, timestamp: '2022-10-11T10:13:14.000000016Z' })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, keys: [newSigningKey()] })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: `${VECTOR.signature.slice(0, 63)}0` })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: VECTOR.signature.slice(0, 62) })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: '' })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, signatureHeader: undefined })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, timestamp: undefined })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, keys: [] })).toBe(false)
  })

  it('refuses timestamps outside the tolerance, either way, and ones that are not RFC 3339', async () => {
    const base = { body: VECTOR.body, timestamp: VECTOR.timestamp, signatureHeader: VECTOR.signature, keys: [VECTOR.key] }
    expect(await verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:18:14Z') })).toBe(true)
    expect(await verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:18:15Z') })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:08:13Z') })).toBe(false)
    expect(await verifyWebhookSignature({ ...base, now: new Date('2022-10-11T10:20:00Z'), toleranceSeconds: 600 })).toBe(true)
    expect(await verifyWebhookSignature({ ...base })).toBe(false)
    const unparsable = 'yesterday'
    const signed = signWebhookPayload(VECTOR.body, unparsable, VECTOR.key)
    expect(await verifyWebhookSignature({ ...base, timestamp: unparsable, signatureHeader: signed })).toBe(false)
  })

  it('throws on a signing key that is not base64: a configuration error, not a forged request', async () => {
    const input = { body: VECTOR.body, timestamp: VECTOR.timestamp, signatureHeader: VECTOR.signature, keys: ['not base64!'], now: AT_VECTOR_TIME }
    await expect(verifyWebhookSignature(input)).rejects.toThrow()
  })
})

describe('the server package’s verifyWebhookSignature (issue 10: it moved into the client)', () => {
  it('is the client package’s own function, re-exported, and verifies the test vector', async () => {
    expect(fromServerPackage).toBe(fromClientPackage)
    const input = { body: VECTOR.body, timestamp: VECTOR.timestamp, keys: [VECTOR.key], signatureHeader: VECTOR.signature, now: AT_VECTOR_TIME }
    expect(await fromServerPackage(input)).toBe(true)
    expect(await fromServerPackage({ ...input, body: '{"hello":">world"}' })).toBe(false)
  })
})
