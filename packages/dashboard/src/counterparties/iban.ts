/**
 * An IBAN checked as it is typed (ISO 13616-1): the country code, the two check digits, the length and
 * the mod-97 checksum (ISO 7064 MOD 97-10). It gives instant feedback only; the API checks again, with
 * each country's own length and format, and its verdict is the one shown after "Create".
 */

/** The IBAN in electronic form: no spaces, upper case (ISO 13616-1 §5.3). */
export function electronicIban(typed: string): string {
  return typed.replace(/\s+/g, '').toUpperCase()
}

/** ISO 13616-1: the shortest IBAN in use has 15 characters (Norway), none has more than 34. */
const MIN_LENGTH = 15
const MAX_LENGTH = 34

/** The remainder of the IBAN's number (rearranged, letters as 10–35) divided by 97, digit by digit. */
function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4)
  let remainder = 0
  for (const character of rearranged) {
    const digits = String(parseInt(character, 36))
    for (const digit of digits) remainder = (remainder * 10 + Number(digit)) % 97
  }
  return remainder
}

/** What is wrong with a typed IBAN, in words for the person typing it; undefined when nothing is. */
export function ibanProblem(typed: string): string | undefined {
  const iban = electronicIban(typed)
  if (!/^[A-Z]{2}/.test(iban)) return 'An IBAN starts with the two letters of its country (DE, FR, NL…).'
  if (!/^[A-Z]{2}[0-9]{2}/.test(iban)) return 'The country code is followed by two check digits.'
  if (!/^[A-Z0-9]+$/.test(iban)) return 'An IBAN holds only letters and digits.'
  if (iban.length < MIN_LENGTH) return `Too short: ${iban.length} characters; an IBAN has at least ${MIN_LENGTH}.`
  if (iban.length > MAX_LENGTH) return `Too long: ${iban.length} characters; an IBAN has at most ${MAX_LENGTH}.`
  if (mod97(iban) !== 1) return 'The check digits do not match: a character is mistyped or two are swapped.'
  return undefined
}
