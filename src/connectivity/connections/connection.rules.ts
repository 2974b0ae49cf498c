import { isAbsolute, normalize, sep } from 'node:path'
import { isSEPACountry, validateBIC } from 'ibantools'
import { invalidField } from '../../http/errors.js'
import type { ConnectionEditable } from './connection.schemas.js'

/**
 * The rules of a connection's settings that its schema cannot state, checked at creation and after every
 * PATCH, each failure a 400 naming the field (the schema has already checked shapes and lengths).
 */

/** ISO 9362: a BIC's 5th and 6th letters are the ISO 3166 country of the bank. */
function bicProblem(bic: string): string | undefined {
  return validateBIC(bic).valid ? undefined : 'does not name a known country in its 5th and 6th letters (ISO 9362)'
}

/** ISO 7064 MOD 97-10 of a string of digits and letters, letters counting A = 10 … Z = 35 (as in ISO 13616). */
function mod97(text: string): number {
  let remainder = 0
  for (const character of text) {
    for (const digit of String(parseInt(character, 36))) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder
}

/**
 * EPC262-08, "Creditor Identifier Overview": positions 1–2 the country, 3–4 check digits, 5–7 the creditor
 * business code (any, ZZZ when unused, left out of the check), then the national identifier. The check
 * digits are 98 minus MOD 97-10 of the national identifier followed by the country and "00".
 */
export function creditorSchemeIdProblem(id: string): string | undefined {
  const country = id.slice(0, 2)
  if (!isSEPACountry(country)) return `starts with ${country}, which is not a SEPA country`
  const expected = String(98 - mod97(`${id.slice(7)}${country}00`)).padStart(2, '0')
  return id.slice(2, 4) === expected ? undefined : `fails the ISO 7064 MOD 97-10 check: its check digits would be ${expected}`
}

/**
 * A directory the server can be told to use: absolute, written as `path.normalize` writes it without a
 * trailing separator, and inside the server's bank files directory — a client with connections:create must
 * not have the server write (or, for an inbox, read) wherever it may on the disk.
 */
export function directoryProblem(path: string, filesDir: string): string | undefined {
  if (!isAbsolute(path)) return 'must be an absolute path'
  if (normalize(path) !== path || path.endsWith(sep)) {
    return `must be written in normal form, without ".", "..", repeated or trailing separators: ${normalize(path).replace(/(.)[/\\]$/, '$1')}`
  }
  if (!isInside(path, filesDir)) return `must lie inside the server's bank files directory (KASSA_BANK_FILES_DIR): ${filesDir}`
  return undefined
}

/** `inner` is a directory below `outer` (not `outer` itself). */
export function isInside(inner: string, outer: string): boolean {
  return inner.startsWith(outer.endsWith(sep) ? outer : `${outer}${sep}`)
}

/** The same directory, or one inside the other: two connections sharing files would read each other's. */
export function directoriesOverlap(a: string, b: string): boolean {
  return a === b || isInside(a, b) || isInside(b, a)
}

/**
 * @param type the connection's: only FILES connections exchange files through directories.
 * @throws ApiError invalid_request (400) naming the first field at fault.
 */
export function checkConnectionSettings(type: 'FILES' | 'SANDBOX', settings: ConnectionEditable, filesDir: string): void {
  const bankBic = bicProblem(settings.bank.bic)
  if (bankBic) throw invalidField('bank.bic', bankBic)
  const { identifiers } = settings.initiatingParty
  if (identifiers) {
    if ((identifiers.bic === undefined) === (identifiers.other === undefined)) {
      throw invalidField('initiatingParty.identifiers', 'must hold either bic or other, not both and not neither (EPC implementation guidelines)')
    }
    const partyBic = identifiers.bic === undefined ? undefined : bicProblem(identifiers.bic)
    if (partyBic) throw invalidField('initiatingParty.identifiers.bic', partyBic)
    const scheme = identifiers.other?.schemeName
    if (scheme && (scheme.code === undefined) === (scheme.proprietary === undefined)) {
      throw invalidField('initiatingParty.identifiers.other.schemeName', 'must hold either code or proprietary, not both and not neither')
    }
  }
  if (settings.creditorSchemeId !== undefined) {
    const problem = creditorSchemeIdProblem(settings.creditorSchemeId)
    if (problem) throw invalidField('creditorSchemeId', problem)
  }
  for (const field of ['outboxDir', 'inboxDir'] as const) {
    const path = settings[field]
    if (path === undefined) continue
    if (type !== 'FILES') throw invalidField(field, 'is for FILES connections only: a SANDBOX connection exchanges no files')
    const problem = directoryProblem(path, filesDir)
    if (problem) throw invalidField(field, problem)
  }
  if (settings.outboxDir !== undefined && settings.inboxDir !== undefined && directoriesOverlap(settings.outboxDir, settings.inboxDir)) {
    throw invalidField('inboxDir', 'must be apart from outboxDir (neither the same directory nor one inside the other): Kassa would read its own files as the bank\'s')
  }
}
