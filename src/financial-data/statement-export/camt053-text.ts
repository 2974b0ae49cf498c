/**
 * Stored text made fit for the camt.053 schema's text types. Kassa's data came from the API and from
 * banks' files, under other limits: here it is cut to the schema's maximum length (Max35Text, Max70Text,
 * Max140Text, Max500Text count characters, so code points, not UTF-16 units), and characters XML 1.0 §2.2
 * cannot carry (C0 controls but tab and line breaks, U+FFFE/U+FFFF, lone surrogates) are removed.
 * Escaping is left to the serializer (src/shared/xml-text.ts).
 */

const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/** The text cut to `max` characters, or undefined when nothing is left (the schema's texts have minLength 1). */
export function schemaText(text: string | undefined, max: number): string | undefined {
  if (text === undefined) return undefined
  const cut = Array.from(text.replace(NOT_XML, '')).slice(0, max).join('').trim()
  return cut === '' ? undefined : cut
}

/**
 * A reference the schema takes verbatim or not at all (AcctSvcrRef, EndToEndId: Max35Text): a cut
 * reference would name another entry or payment.
 */
export function wholeReference(text: string | undefined): string | undefined {
  return text !== undefined && text === schemaText(text, 35) ? text : undefined
}

/** Unstructured remittance: Ustrd lines of at most 140 characters, as many as the text needs. */
export function remittanceLines(text: string | undefined): string[] {
  const characters = Array.from(schemaText(text, Number.MAX_SAFE_INTEGER) ?? '')
  const lines: string[] = []
  for (let start = 0; start < characters.length; start += 140) {
    const line = schemaText(characters.slice(start, start + 140).join(''), 140)
    if (line !== undefined) lines.push(line)
  }
  return lines
}

/** ISO 13616 IBAN and ISO 9362 BIC as the schema's patterns (IBAN2007Identifier, BICFIDec2014Identifier) have them. */
export const IBAN_PATTERN = /^[A-Z]{2}[0-9]{2}[a-zA-Z0-9]{1,30}$/
export const BIC_PATTERN = /^[A-Z0-9]{4}[A-Z]{2}[A-Z0-9]{2}([A-Z0-9]{3})?$/
