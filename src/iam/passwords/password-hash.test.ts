import { describe, expect, it } from 'vitest'
import { hashPassword, needsRehash, SCRYPT_PARAMETERS, verifyPassword } from './password-hash.js'

describe('password hashes', () => {
  it('stores scrypt with its parameters and a fresh salt, and verifies only the same password', async () => {
    const first = await hashPassword('correct horse battery staple')
    const second = await hashPassword('correct horse battery staple')
    expect(first).toMatch(/^\$scrypt\$ln=15,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(first).not.toBe(second)
    expect(first).not.toContain('horse')
    expect(await verifyPassword('correct horse battery staple', first)).toBe(true)
    expect(await verifyPassword('correct horse battery stapl', first)).toBe(false)
    expect(await verifyPassword('Correct horse battery staple', first)).toBe(false)
  })

  it('verifies hashes made with other parameters, and asks for a rehash of weaker ones', async () => {
    const weaker = '$scrypt$ln=10,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$' // hash filled in below
    const { scryptSync } = await import('node:crypto')
    const hash = scryptSync('an older password', Buffer.from('c2FsdHNhbHRzYWx0c2FsdA', 'base64'), 32, { N: 1024, r: 8, p: 1 })
    const stored = weaker + hash.toString('base64').replace(/=+$/, '')
    expect(await verifyPassword('an older password', stored)).toBe(true)
    expect(needsRehash(stored)).toBe(true)
    expect(needsRehash(await hashPassword('a current password'))).toBe(false)
    expect(SCRYPT_PARAMETERS).toEqual({ ln: 15, r: 8, p: 1 })
  })

  it('refuses a stored value that is not a hash of this format rather than calling it a mismatch', async () => {
    await expect(verifyPassword('x', 'plain text')).rejects.toThrow(/\$scrypt\$ format/)
  })
})
