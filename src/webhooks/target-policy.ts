import { lookup as dnsLookup } from 'node:dns/promises'
import { isIP } from 'node:net'
import ipaddr from 'ipaddr.js'

/**
 * Where webhooks may POST to (SSRF protection). Only https, to hosts whose every address is a
 * public unicast one. `allowLoopback` (KASSA_WEBHOOK_ALLOW_LOOPBACK, for development and tests)
 * also admits plain http and loopback addresses; private, link-local (169.254.169.254, the cloud
 * metadata service) and other special ranges stay refused whatever the setting. The check runs
 * when a webhook is saved and again, on a fresh DNS answer, before every delivery.
 */

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to all its addresses, as `dns.lookup(host, {all: true})` does. Replaceable in tests. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>

export const systemResolver: HostResolver = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }))

export interface TargetPolicy {
  allowLoopback: boolean
  resolve: HostResolver
}

/** Why a URL or address is refused; the message is safe to show to the webhook's owner. */
export class RefusedTarget extends Error {}

/** `[::1]` → `::1`: URL keeps the brackets of an IPv6 literal. */
function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/**
 * `::a.b.c.d`, which URL parsing writes `::7f00:1`: the IPv4-compatible form, deprecated since 2006
 * (RFC 4291 §2.5.5.1) and unknown to ipaddr.js, which calls it unicast. It embeds an IPv4 address and
 * no public host uses it, so it is refused whatever the address it embeds (issue 9: [::127.0.0.1]).
 * The other forms that embed IPv4 have ranges of their own, all refused: ::ffff:0:0/96 (mapped,
 * unwrapped by process()), 64:ff9b::/96 and 64:ff9b:1::/48 (NAT64), 2002::/16 (6to4), 2001::/32 (Teredo).
 */
function isIpv4Compatible(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).parts.slice(0, 6).every((part) => part === 0)
}

/** The range name when `address` may not be a target under `allowLoopback`, else undefined. */
export function refusedRange(address: string, allowLoopback: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid'
  // process() turns IPv4-mapped IPv6 (::ffff:127.0.0.1) into the IPv4 address it stands for.
  const parsed = ipaddr.process(address)
  const range = parsed.range()
  if (range === 'unicast' && isIpv4Compatible(parsed)) return 'ipv4Compatible'
  if (range === 'unicast') return undefined
  if (range === 'loopback' && allowLoopback) return undefined
  return range
}

/**
 * The URL's scheme and form, without looking at addresses.
 * @throws RefusedTarget
 */
export function parseTargetUrl(raw: string, allowLoopback: boolean): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new RefusedTarget('is not an absolute URL')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && allowLoopback)) {
    throw new RefusedTarget(allowLoopback ? 'must be an http or https URL' : 'must be an https URL')
  }
  if (url.hostname === '') throw new RefusedTarget('has no host')
  return url
}

/**
 * The addresses a delivery to `url` may connect to: all of the host's, each one allowed.
 * @throws RefusedTarget when any is refused, or the host does not resolve.
 */
export async function resolveTarget(url: URL, policy: TargetPolicy): Promise<ResolvedAddress[]> {
  const hostname = bareHostname(url)
  const family = isIP(hostname)
  let addresses: ResolvedAddress[]
  if (family !== 0) {
    addresses = [{ address: hostname, family: family === 6 ? 6 : 4 }]
  } else {
    try {
      addresses = await policy.resolve(hostname)
    } catch (error) {
      const code = (error as { code?: string }).code ?? 'failed'
      throw new RefusedTarget(`host ${hostname} does not resolve (${code})`)
    }
    if (addresses.length === 0) throw new RefusedTarget(`host ${hostname} does not resolve`)
  }
  for (const { address } of addresses) {
    const range = refusedRange(address, policy.allowLoopback)
    if (range !== undefined) {
      const what = address === hostname ? `is a ${range} address` : `resolves to ${address}, a ${range} address`
      throw new RefusedTarget(`${what}; webhooks may only target public addresses`)
    }
  }
  return addresses
}
