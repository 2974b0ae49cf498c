import { describe, expect, it } from 'vitest'
import { parseTargetUrl, refusedRange, RefusedTarget, resolveTarget, type HostResolver } from './target-policy.js'

const resolver: HostResolver = async (hostname) => {
  const table: Record<string, string[]> = {
    'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
    'internal.example.com': ['10.1.2.3'],
    'mixed.example.com': ['93.184.215.14', '192.168.1.1'],
    'rebind.example.com': ['127.0.0.1'],
  }
  const addresses = table[hostname]
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}

async function refusal(raw: string, allowLoopback = false): Promise<string | undefined> {
  try {
    await resolveTarget(parseTargetUrl(raw, allowLoopback), { allowLoopback, resolve: resolver })
    return undefined
  } catch (error) {
    if (error instanceof RefusedTarget) return error.message
    throw error
  }
}

describe('webhook target policy', () => {
  it('names the range of every address that is not public unicast', () => {
    expect(refusedRange('93.184.215.14', false)).toBeUndefined()
    expect(refusedRange('127.0.0.1', false)).toBe('loopback')
    expect(refusedRange('127.0.0.1', true)).toBeUndefined()
    expect(refusedRange('::1', true)).toBeUndefined()
    expect(refusedRange('::ffff:127.0.0.1', false)).toBe('loopback')
    expect(refusedRange('10.0.0.1', true)).toBe('private')
    expect(refusedRange('172.16.5.4', true)).toBe('private')
    expect(refusedRange('192.168.0.10', true)).toBe('private')
    expect(refusedRange('169.254.169.254', true)).toBe('linkLocal')
    expect(refusedRange('fe80::1', true)).toBe('linkLocal')
    expect(refusedRange('fd00::1', true)).toBe('uniqueLocal')
    expect(refusedRange('0.0.0.0', true)).toBe('unspecified')
    expect(refusedRange('100.64.0.1', true)).toBe('carrierGradeNat')
    expect(refusedRange('::ffff:10.0.0.1', true)).toBe('private')
  })

  it('refuses every IPv6 form that embeds an IPv4 address, as URLs write them', async () => {
    for (const embedded of ['::127.0.0.1', '::169.254.169.254', '::10.0.0.1', '::8.8.8.8']) {
      expect(await refusal(`https://[${embedded}]/`, true)).toMatch(/is a ipv4Compatible address/)
    }
    expect(new URL('https://[::127.0.0.1]/').hostname).toBe('[::7f00:1]')
    expect(await refusal('https://[::ffff:127.0.0.1]/')).toMatch(/loopback/)
    expect(await refusal('https://[::ffff:a9fe:a9fe]/', true)).toMatch(/linkLocal/)
    expect(await refusal('https://[64:ff9b::7f00:1]/', true)).toMatch(/rfc6052/)
    expect(await refusal('https://[64:ff9b:1::a00:1]/', true)).toMatch(/rfc6052/)
    expect(await refusal('https://[2002:7f00:1::]/', true)).toMatch(/6to4/)
    expect(await refusal('https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', true)).toMatch(/teredo/)
    expect(await refusal('https://[::ffff:0:7f00:1]/', true)).toMatch(/rfc6145/)
    expect(refusedRange('::1', true)).toBeUndefined()
    expect(refusedRange('::', true)).toBe('unspecified')
  })

  it('accepts https URLs of public hosts only', async () => {
    expect(await refusal('https://hooks.example.com/kassa')).toBeUndefined()
    expect(await refusal('https://93.184.215.14:8443/x')).toBeUndefined()
    expect(await refusal('http://hooks.example.com/kassa')).toBe('must be an https URL')
    expect(await refusal('ftp://hooks.example.com/')).toBe('must be an https URL')
    expect(await refusal('hooks.example.com/kassa')).toBe('is not an absolute URL')
    expect(await refusal('https://127.0.0.1/')).toMatch(/loopback/)
    expect(await refusal('https://[::1]:8443/')).toMatch(/loopback/)
    expect(await refusal('https://10.0.0.1/')).toMatch(/private/)
    expect(await refusal('https://169.254.169.254/latest/meta-data')).toMatch(/linkLocal/)
    expect(await refusal('https://internal.example.com/')).toMatch(/resolves to 10\.1\.2\.3, a private address/)
    expect(await refusal('https://mixed.example.com/')).toMatch(/192\.168\.1\.1/)
    expect(await refusal('https://rebind.example.com/')).toMatch(/loopback/)
    expect(await refusal('https://nowhere.example.com/')).toMatch(/does not resolve \(ENOTFOUND\)/)
  })

  it('with loopback allowed, admits http and loopback but still no private or link-local targets', async () => {
    expect(await refusal('http://127.0.0.1:3000/hooks', true)).toBeUndefined()
    expect(await refusal('http://[::1]:3000/hooks', true)).toBeUndefined()
    expect(await refusal('http://rebind.example.com/', true)).toBeUndefined()
    expect(await refusal('http://10.0.0.1/', true)).toMatch(/private/)
    expect(await refusal('http://169.254.169.254/', true)).toMatch(/linkLocal/)
  })
})
