import { v7 as uuidv7 } from 'uuid'

/** Time-ordered UUIDs (RFC 9562 v7): new rows append to the end of every id index, and id order is creation order. */
export function newId(): string {
  return uuidv7()
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID.test(value)
}
