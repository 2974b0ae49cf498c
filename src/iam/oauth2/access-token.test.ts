import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { accessTokenDigest, isAccessTokenShaped, newAccessToken } from './access-token.js'

describe('access tokens', () => {
  it('are 32 random bytes behind their prefix, never twice the same', () => {
    const tokens = new Set(Array.from({ length: 100 }, newAccessToken))
    expect(tokens.size).toBe(100)
    for (const token of tokens) {
      expect(token).toMatch(/^kassa_at_[A-Za-z0-9_-]{43}$/)
      expect(Buffer.from(token.slice('kassa_at_'.length), 'base64url')).toHaveLength(32)
      expect(isAccessTokenShaped(token)).toBe(true)
    }
  })

  it('refuses by their shape what no token of this server looks like', () => {
    const token = newAccessToken()
    for (const text of ['', token.slice(0, -1), `${token}A`, token.replace('kassa_at_', 'kassa_xx_'), `${token.slice(0, -1)}=`, ` ${token}`]) {
      expect(isAccessTokenShaped(text), text).toBe(false)
    }
  })

  it('are stored as their SHA-256 digest', () => {
    const token = newAccessToken()
    expect(accessTokenDigest(token)).toBe(createHash('sha256').update(token, 'utf8').digest('hex'))
    expect(accessTokenDigest(token)).not.toBe(accessTokenDigest(newAccessToken()))
  })
})
