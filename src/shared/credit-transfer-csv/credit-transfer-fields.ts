import { minorUnits } from './amount.js'

/**
 * A credit transfer as a person writes it, on the command line, in a CSV row the CLI sends one by one, or in the
 * CSV file of a credit transfer batch (payments/credit-transfer-batches/): flat text fields, named as the CSV
 * columns are. One mapping to the API's body, shared by the CLI and the server.
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

/** The scheme of a row or of the command line that names none (the CSV's scheme column is optional). */
export const DEFAULT_SCHEME = 'SCT'

/**
 * The fields of POST /payments/v2/credit-transfers that `fields` give (absent ones left out, for a
 * --body file to supply). Only what the mapping must decide is checked here; the API's validation checks the rest.
 * @throws Error for both destinations at once, an amount without a currency, or an amount the currency cannot hold.
 */
export function transferBody(fields: TransferFields): Record<string, unknown> {
  const { destinationAccountId, destinationExternalAccountId, amount, currency } = fields
  if (destinationAccountId !== undefined && destinationExternalAccountId !== undefined) {
    throw new Error('give destinationAccountId (an own account) or destinationExternalAccountId (a counterparty\'s account), not both')
  }
  if ((amount === undefined) !== (currency === undefined)) throw new Error('give amount and currency together')
  const body: Record<string, unknown> = {
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
  }
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined))
}
