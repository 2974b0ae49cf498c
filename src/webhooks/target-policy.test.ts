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
