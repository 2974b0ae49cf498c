let lastMilliseconds = Number.NaN
let lastIso = ''

/**
 * Current time as the ISO 8601 UTC string every table stores and every response shows. A create asks for it several
 * times within one millisecond: the string is formatted once per millisecond (issue 14).
 */
export function nowIso(): string {
  const milliseconds = Date.now()
  if (milliseconds !== lastMilliseconds) {
    lastMilliseconds = milliseconds
    lastIso = new Date(milliseconds).toISOString()
  }
  return lastIso
}

export function isoAfter(milliseconds: number, from: Date = new Date()): string {
  return new Date(from.getTime() + milliseconds).toISOString()
}
