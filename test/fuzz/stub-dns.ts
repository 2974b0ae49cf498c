import type { HostResolver } from '../../src/webhooks/index.js'

/**
 * The fuzzed server's DNS for webhook hosts (fuzz-server.ts, and fuzz-process.ts in a process of its own): names
 * that resolve to public, private, loopback and link-local addresses in every spelling; anything else does not
 * resolve.
 */
export const STUB_DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14'],
  'dual.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'intranet.example.com': ['10.20.30.40'],
  'metadata.example.com': ['169.254.169.254'],
  'localhost.example.com': ['127.0.0.1'],
  'mixed.example.com': ['93.184.215.14', '127.0.0.1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'compat.example.com': ['::127.0.0.1'],
}

export const resolveStub: HostResolver = async (hostname) => {
  const addresses = STUB_DNS[hostname]
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
}
