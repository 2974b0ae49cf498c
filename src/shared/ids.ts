import { v5 as uuidv5, v7 as uuidv7 } from 'uuid'

/** Time-ordered UUIDs (RFC 9562 v7): new rows append to the end of every id index, and id order is creation order. */
export function newId(): string {
  return uuidv7()
}

/** The namespace of Kassa's name-based ids (RFC 9562 v5): a fixed UUID, chosen once, never to change. */
const KASSA_NAMESPACE = '6f1d3c52-9b0e-4c7a-8e55-2f4a1b7d9c30'

/**
 * A name-based UUID (RFC 9562 v5, SHA-1) of `parts`: the same parts always give the same id, on every server — for
 * ids that name a relationship rather than a stored row (an account's affiliationId).
 */
export function derivedId(...parts: string[]): string {
  const name = parts.join('\n')
  let id = derivedIds.get(name)
  if (id === undefined) {
    if (derivedIds.size >= DERIVED_IDS_KEPT) derivedIds.clear()
    id = uuidv5(name, KASSA_NAMESPACE)
    derivedIds.set(name, id)
  }
  return id
}

/**
 * Derived ids name few things (an organization's Owner approval chain, a bank, an affiliation) and are asked for
 * every payment and account served: the SHA-1 of each is kept, up to this many names (issue 14: 2% of a create's CPU).
 */
const DERIVED_IDS_KEPT = 10_000
const derivedIds = new Map<string, string>()

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/**
 * The EndToEndId of a payment: its id without hyphens (32 characters, within ISO 20022's Max35Text). It
 * travels to the bank in the payment file and comes back on the booked entry, which is how the booking
 * is matched to the payment; a statement out lists it for the payments reconciled to an entry.
 */
export function endToEndIdOf(paymentId: string): string {
  return paymentId.replaceAll('-', '')
}

/** The payment id an end-to-end id of endToEndIdOf's came from; undefined for any other end-to-end id (another sender's). */
export function paymentIdOfEndToEndId(endToEndId: string): string | undefined {
  const match = /^([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/.exec(endToEndId.toLowerCase())
  return match ? match.slice(1).join('-') : undefined
}
