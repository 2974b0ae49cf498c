import type { Problem } from '../api/problem'

/** The fields of the credit-transfer form, named by the first part of the API's field paths ("amount.value"). */
export type TransferField = 'source' | 'destination' | 'amount' | 'date' | 'scheme' | 'reference'

export const FIELD_LABELS: Record<TransferField, string> = {
  source: 'From account',
  destination: 'Counterparty account',
  amount: 'Amount',
  date: 'Execution date',
  scheme: 'Scheme',
  reference: 'Reference',
}

export type FieldErrors = Partial<Record<TransferField, string>>

/**
 * The API's validation details (details[].field, a dot path such as "amount.currency") placed at the
 * form's fields, in words ("Reference may only hold …", "Amount must be positive"); details no field shows stay in `rest`.
 */
export function fieldErrorsOf(problem: Problem): { errors: FieldErrors; rest: Problem['details'] } {
  const errors: FieldErrors = {}
  const rest: Problem['details'] = []
  for (const detail of problem.details) {
    const [head, ...tail] = detail.field.split('.') as [string, ...string[]]
    if (!(head in FIELD_LABELS)) {
      rest.push(detail)
      continue
    }
    const field = head as TransferField
    // The API words most details as a predicate of the field ("must be positive"), some as a sentence ("SCT payments are in EUR only").
    const subject = field === 'amount' && tail[0] === 'currency' ? 'The currency' : FIELD_LABELS[field]
    errors[field] ??= /^[a-z]/.test(detail.error) ? `${subject} ${detail.error}` : detail.error
  }
  return { errors, rest }
}
