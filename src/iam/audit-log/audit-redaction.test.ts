import { describe, expect, it } from 'vitest'
import { REDACTED, redactSecrets } from './audit-redaction.js'

describe('redactSecrets', () => {
  it('replaces secrets, hashes and digests at any depth', () => {
    const redacted = redactSecrets({
      accessKey: 'AK1',
      secret: 's3cr3t',
      user: { passwordHash: 'scrypt$…', totp: { secret: 'JBSWY3DP' } },
      keys: [{ id: 'k1', signingKey: 'ks2/1PlSYCWe', signingSecret: 'whsec_x' }],
      tokenDigest: 'abc',
    })
    expect(redacted).toEqual({
      accessKey: 'AK1',
      secret: REDACTED,
      user: { passwordHash: REDACTED, totp: { secret: REDACTED } },
      keys: [{ id: 'k1', signingKey: REDACTED, signingSecret: REDACTED }],
      tokenDigest: REDACTED,
    })
  })

  it('keeps flags that only say whether there is one, and everything else as it is', () => {
    const value = { name: 'Ops', passwordChangeRequired: true, hasSecret: false, permissions: ['users:read'], count: 2, none: null }
    expect(redactSecrets(value)).toEqual(value)
  })
})
