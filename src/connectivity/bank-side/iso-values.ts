import { element, type XmlElement } from '../../shared/xml-text.js'

/** The values the bank side's writers check before writing: a wrong one is the simulated bank's bug, a RangeError. */

/** Max35Text, taken whole or refused: a cut id would name another file, payment or notification. */
export function identifier(name: string, value: string): XmlElement {
  const length = [...value].length
  if (length < 1 || length > 35) throw new RangeError(`${name} must have 1 to 35 characters: ${JSON.stringify(value)}`)
  return element(name, value)
}

/** ISODateTime in UTC to the second, as Kassa's pain writers write CreDtTm. */
export function dateTime(name: string, value: Date): XmlElement {
  if (Number.isNaN(value.getTime())) throw new RangeError(`${name} is not a valid date-time`)
  return element(name, value.toISOString().replace(/\.\d{3}Z$/, 'Z'))
}
