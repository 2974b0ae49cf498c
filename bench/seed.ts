/** Seeding Kassa over its own API, and capturing its responses as the bodies the bare server returns. */
import type { BareBodies } from './protocol.js'

/** Valid IBANs (mod-97) of a few markets, so seeded counterparties look like real ones. */
const IBANS = [
  { market: 'DE', number: 'DE89370400440532013000' },
  { market: 'GB', number: 'GB82WEST12345698765432' },
  { market: 'FR', number: 'FR1420041010050500013M02606' },
  { market: 'NL', number: 'NL91ABNA0417164300' },
] as const

/** A typical create body: a company with an address and one IBAN account. */
export function counterpartyBody(n: number): string {
  const iban = IBANS[n % IBANS.length]!
  return JSON.stringify({
    legalName: `Benchmark Supplier ${n} GmbH`,
    alias: `supplier-${n}`,
    partyType: 'COMPANY',
    email: `billing-${n}@supplier.example`,
    address: { country: iban.market, city: 'Berlin', postalCode: '10115', streetName: 'Invalidenstraße', streetNumber: '117' },
    accounts: [{ market: iban.market, identifiers: [{ market: iban.market, type: 'IBAN', number: iban.number }] }],
    metadata: { source: 'bench' },
  })
}

export function basicAuth(accessKey: string, secret: string): string {
  return `Basic ${Buffer.from(`${accessKey}:${secret}`).toString('base64')}`
}

async function call(url: string, init: RequestInit, expectStatus: number): Promise<unknown> {
  const response = await fetch(url, init)
  const text = await response.text()
  if (response.status !== expectStatus) throw new Error(`${init.method ?? 'GET'} ${url}: ${response.status} ${text}`)
  return JSON.parse(text) as unknown
}

export interface Seeded {
  /** A counterparty to GET by id. */
  counterpartyId: string
  bodies: BareBodies
}

/** Creates `count` counterparties (more than a list page, so the page has a nextToken) and reads back the bodies. */
export async function seed(kassaUrl: string, authorization: string, count: number): Promise<Seeded> {
  const base = `${kassaUrl}/payments/v2/counterparties`
  let created: unknown
  for (let n = 0; n < count; n += 1) {
    created = await call(
      base,
      {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/json', 'idempotency-key': `seed-${n}` },
        body: counterpartyBody(n),
      },
      201,
    )
  }
  const { id } = created as { id: string }
  const counterparty = await call(`${base}/${id}`, { headers: { authorization } }, 200)
  const list = await call(`${base}?limit=100`, { headers: { authorization } }, 200)
  return { counterpartyId: id, bodies: { counterparty, list, created } }
}
