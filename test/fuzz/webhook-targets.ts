import fc from 'fast-check'

/**
 * Webhook URLs that point, one way or another, at a loopback, private, link-local or otherwise
 * special address (SSRF): the address in every spelling a URL parser or resolver accepts — decimal,
 * octal, hex, short forms; IPv4-mapped, IPv4-compatible, NAT64 and 6to4 IPv6; names the stub DNS
 * resolves privately; userinfo and fragment tricks; schemes other than https. All must be refused.
 */

const PRIVATE_V4 = ['127.0.0.1', '127.1.2.3', '10.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1', '198.18.0.1', '224.0.0.1', '255.255.255.255']

function octets(ip: string): number[] {
  return ip.split('.').map(Number)
}

function hex16(ip: string): [string, string] {
  const [a, b, c, d] = octets(ip) as [number, number, number, number]
  return [((a << 8) | b).toString(16), ((c << 8) | d).toString(16)]
}

/** The spellings of one IPv4 address as a URL host. */
function spellings(ip: string): string[] {
  const [a, b, c, d] = octets(ip) as [number, number, number, number]
  const integer = ((a << 24) >>> 0) + (b << 16) + (c << 8) + d
  const [high, low] = hex16(ip)
  return [
    ip,
    `${ip}.`,
    String(integer),
    `0x${integer.toString(16)}`,
    [a, b, c, d].map((octet) => `0${octet.toString(8)}`).join('.'),
    [a, b, c, d].map((octet) => `0x${octet.toString(16)}`).join('.'),
    `${a}.${(b << 16) + (c << 8) + d}`,
    `[::ffff:${ip}]`,
    `[::ffff:${high}:${low}]`,
    `[0:0:0:0:0:ffff:${ip}]`,
    `[::${ip}]`,
    `[::${high}:${low}]`,
    `[64:ff9b::${ip}]`,
    `[2002:${high}:${low}::1]`,
  ]
}

const SPECIAL_V6 = ['[::1]', '[0:0:0:0:0:0:0:1]', '[::]', '[fe80::1]', '[fe80::1%25eth0]', '[fc00::1]', '[fd12:3456::1]', '[ff02::1]']
const PRIVATE_NAMES = ['localhost', 'intranet.example.com', 'metadata.example.com', 'localhost.example.com', 'mixed.example.com', 'mapped.example.com', 'compat.example.com', 'unknown.example.com']

const host = fc.oneof(
  { arbitrary: fc.constantFrom(...PRIVATE_V4).chain((ip) => fc.constantFrom(...spellings(ip))), weight: 6 },
  fc.constantFrom(...SPECIAL_V6),
  fc.constantFrom(...PRIVATE_NAMES),
)

export const privateWebhookUrl: fc.Arbitrary<string> = fc.oneof(
  {
    arbitrary: fc
      .tuple(host, fc.constantFrom('', ':443', ':8443', ':22'), fc.constantFrom('/', '/hooks', '/latest/meta-data/', '?x=1'))
      .map(([target, port, path]) => `https://${target}${port}${path}`),
    weight: 8,
  },
  host.chain((target) => fc.constantFrom(`https://hooks.example.com@${target}/`, `https://user:pass@${target}/`, `https://${target}#@hooks.example.com/`, `https://${target}\\@hooks.example.com/`)),
  fc.constantFrom('http://hooks.example.com/kassa', 'ftp://hooks.example.com/', 'file:///etc/passwd', 'gopher://127.0.0.1:25/', 'javascript:alert(1)', 'data:text/plain,x', 'https://', 'hooks.example.com/kassa', '//hooks.example.com/'),
)
