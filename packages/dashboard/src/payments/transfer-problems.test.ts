import { describe, expect, it } from 'vitest'
import { fieldErrorsOf } from './transfer-problems'

describe("fieldErrorsOf: the API's validation details at the form's fields", () => {
  it('places each detail at the field its path starts with, in words, the first per field', () => {
    const { errors, rest } = fieldErrorsOf({
      message: 'The request is invalid',
      details: [
        { code: 'invalid_value', field: 'reference', error: "may only hold the SEPA characters a-z A-Z 0-9 / - ? : ( ) . , ' + and space" },
        { code: 'invalid_value', field: 'amount.currency', error: 'SCT payments are in EUR only' },
        { code: 'invalid_value', field: 'amount.value', error: 'must be positive' },
        { code: 'invalid_value', field: 'date', error: "must not be in the past (the bank's business date is 2026-11-24)" },
        { code: 'invalid_value', field: 'destination.id', error: 'is not an external account of this organization' },
        { code: 'unknown_field', field: 'metadata.x', error: 'is not a known field' },
      ],
    })
    expect(errors).toEqual({
      reference: "Reference may only hold the SEPA characters a-z A-Z 0-9 / - ? : ( ) . , ' + and space",
      amount: 'SCT payments are in EUR only',
      date: "Execution date must not be in the past (the bank's business date is 2026-11-24)",
      destination: 'Counterparty account is not an external account of this organization',
    })
    expect(rest).toEqual([{ code: 'unknown_field', field: 'metadata.x', error: 'is not a known field' }])
  })
})
