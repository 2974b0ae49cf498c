import { v7 as uuidv7 } from 'uuid'

/** Time-ordered UUIDs (RFC 9562 v7): new rows append to the end of every id index, and id order is creation order. */
export function newId(): string {
  return uuidv7()
}

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
