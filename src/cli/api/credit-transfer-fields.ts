import { minorUnits } from './amount.js'
import { given, type JsonObject } from './request-body.js'

/**
 * A credit transfer as a person writes it, on the command line or in a CSV row: flat text fields,
 * named as the CSV columns are.
 */
export interface TransferFields {
  sourceAccountId?: string
  /** An own account (type ACCOUNT). */
  destinationAccountId?: string
  /** A counterparty's external account (type EXTERNAL_ACCOUNT). */
  destinationExternalAccountId?: string
  /** Decimal text, e.g. 1250.00; converted to minor units of `currency`. */
  amount?: string
  currency?: string
  date?: string
  reference?: string
  externalId?: string
  scheme?: string
}

export const TRANSFER_FIELDS: ReadonlyArray<keyof TransferFields> = [
  'sourceAccountId',
  'destinationAccountId',
  'destinationExternalAccountId',
  'amount',
  'currency',
  'date',
  'reference',
  'externalId',
  'scheme',
]

/**
 * The fields of POST /payments/v2/credit-transfers that `fields` give (absent ones left out, for a
 * --body file to supply). Only what the CLI must decide is checked here; the server checks the rest.
 * @throws Error for both destinations at once, an amount without a currency, or an amount the currency cannot hold.
 */
export function transferBody(fields: TransferFields): JsonObject {
  const { destinationAccountId, destinationExternalAccountId, amount, currency } = fields
  if (destinationAccountId !== undefined && destinationExternalAccountId !== undefined) {
    throw new Error('give destinationAccountId (an own account) or destinationExternalAccountId (a counterparty\'s account), not both')
  }
  if ((amount === undefined) !== (currency === undefined)) throw new Error('give amount and currency together')
  return given({
    amount: amount === undefined ? undefined : minorUnits(amount, currency!),
    date: fields.date,
    scheme: fields.scheme,
    source: fields.sourceAccountId === undefined ? undefined : { type: 'ACCOUNT', id: fields.sourceAccountId },
    destination:
      destinationAccountId !== undefined
        ? { type: 'ACCOUNT', id: destinationAccountId }
        : destinationExternalAccountId !== undefined
          ? { type: 'EXTERNAL_ACCOUNT', id: destinationExternalAccountId }
          : undefined,
    reference: fields.reference,
    externalId: fields.externalId,
  })
}
