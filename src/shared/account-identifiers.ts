import { electronicFormatIBAN, friendlyFormatIBAN, validateIBAN, ValidationErrorsIBAN } from 'ibantools'
import { invalidField } from '../http/errors.js'
import type { AccountIdentifier, AccountIdentifierInput, RoutingIdentifier } from './common.schemas.js'

const IBAN_PROBLEMS: Partial<Record<ValidationErrorsIBAN, string>> = {
  [ValidationErrorsIBAN.NoIBANProvided]: 'is empty',
  [ValidationErrorsIBAN.NoIBANCountry]: 'does not start with a known IBAN country code',
  [ValidationErrorsIBAN.WrongBBANLength]: 'has the wrong length for its country',
  [ValidationErrorsIBAN.WrongBBANFormat]: 'does not have the account number format of its country',
  [ValidationErrorsIBAN.ChecksumNotNumber]: 'has check digits that are not numbers',
  [ValidationErrorsIBAN.WrongIBANChecksum]: 'fails the mod-97 checksum',
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum]: 'fails its national account checksum',
  [ValidationErrorsIBAN.QRIBANNotAllowed]: 'is a QR-IBAN, which cannot receive payments',
}

/**
 * Normalizes identifiers as banks store them (numbers unspaced, IBANs upper case) and checks IBANs
 * by their country's length and the ISO 13616 mod-97 checksum. A number of only spaces is refused:
 * the schema sees characters, but nothing would be left to pay to.
 * @param field dot path of the identifiers list, for the error (e.g. "accounts.0.identifiers").
 * @throws ApiError invalid_request (400) naming the identifier at fault.
 */
export function normalizeIdentifiers(identifiers: AccountIdentifierInput[], field: string): AccountIdentifier[] {
  return identifiers.map((identifier, index) => {
    if (identifier.type !== 'IBAN') {
      const number = identifier.number.replace(/\s+/g, '')
      if (number === '') throw invalidField(`${field}.${index}.number`, 'is blank')
      return { market: identifier.market, type: identifier.type, number }
    }
    const iban = electronicFormatIBAN(identifier.number) ?? ''
    const { valid, errorCodes } = validateIBAN(iban)
    if (!valid) {
      const problem = errorCodes.map((code) => IBAN_PROBLEMS[code]).find(Boolean) ?? 'is not a valid IBAN'
      throw invalidField(`${field}.${index}.number`, `IBAN ${problem}`)
    }
    return { market: identifier.market, type: 'IBAN', number: iban }
  })
}

/** The number as people read it: an IBAN in groups of four. */
export function displayNumber(identifier: AccountIdentifier): string {
  return identifier.type === 'IBAN' ? (friendlyFormatIBAN(identifier.number) ?? identifier.number) : identifier.number
}

/** reference §2.1 RoutingIdentifier: a bank reached by its BIC, when the BIC is known; else no routing at all. */
export function routingByBic(bic: string | null | undefined): RoutingIdentifier[] {
  return bic === null || bic === undefined ? [] : [{ type: 'BIC', number: bic }]
}
