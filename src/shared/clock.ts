/** Current time as the ISO 8601 UTC string every table stores and every response shows. */
export function nowIso(): string {
  return new Date().toISOString()
}

export function isoAfter(milliseconds: number, from: Date = new Date()): string {
  return new Date(from.getTime() + milliseconds).toISOString()
}
