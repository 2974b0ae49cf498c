import { describe, expect, it } from 'vitest'
import { acceptedStep, newTotpSecret, totpCode, totpUri } from './totp.js'

// RFC 6238 Appendix B: the SHA-1 test secret is the ASCII "12345678901234567890".
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ'

describe('TOTP', () => {
  it('computes the RFC 6238 test vectors (last 6 digits of the 8-digit values)', () => {
    expect(totpCode(RFC_SECRET, new Date(59_000))).toBe('287082')
    expect(totpCode(RFC_SECRET, new Date(1_111_111_109_000))).toBe('081804')
    expect(totpCode(RFC_SECRET, new Date(2_000_000_000_000))).toBe('279037')
  })

  it('accepts a code one step either side of now, once, and nothing further off', () => {
    const now = new Date(1_700_000_000_000)
    const step = Math.floor(now.getTime() / 30_000)
    const secret = newTotpSecret()
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(acceptedStep(secret, totpCode(secret, now), 0, now)).toBe(step)
    expect(acceptedStep(secret, totpCode(secret, new Date(now.getTime() - 30_000)), 0, now)).toBe(step - 1)
    expect(acceptedStep(secret, totpCode(secret, new Date(now.getTime() + 30_000)), 0, now)).toBe(step + 1)
    expect(acceptedStep(secret, totpCode(secret, new Date(now.getTime() - 90_000)), 0, now)).toBeUndefined()
    expect(acceptedStep(secret, totpCode(secret, now), step, now)).toBeUndefined()
  })

  it('gives an otpauth URI an authenticator app can scan', () => {
    const uri = totpUri(RFC_SECRET, 'ada@example.com')
    expect(uri).toBe(`otpauth://totp/Kassa:ada%40example.com?issuer=Kassa&secret=${RFC_SECRET}&algorithm=SHA1&digits=6&period=30`)
  })
})
