import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { assertAcceptablePassword } from './password-policy.js'

function refusal(password: string, email = 'ada@example.com'): string | undefined {
  try {
    assertAcceptablePassword(password, email)
    return undefined
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return error.details?.[0]?.code
  }
}

describe('password policy', () => {
  it('accepts a long, uncommon password', () => {
    expect(refusal('violet kettle drums at noon')).toBeUndefined()
    expect(refusal('Tr0ub4dor&3-horse')).toBeUndefined()
  })

  it('refuses passwords under 12 characters, counting characters, not bytes', () => {
    expect(refusal('short pass!')).toBe('too_short')
    expect(refusal('ÄÖÜäöüßéèêë')).toBe('too_short')
    expect(refusal('ÄÖÜäöüßéèêëx')).toBeUndefined()
    expect(refusal('x'.repeat(1025))).toBe('too_long')
  })

  it('refuses the most common passwords, also with digits or marks around them', () => {
    expect(refusal('qwertyuiop123')).toBe('too_common')
    expect(refusal('1qaz2wsx3edc')).toBe('too_common')
    expect(refusal('Password2024!')).toBe('too_common')
    expect(refusal('!!Sunshine1234')).toBe('too_common')
    expect(refusal('superman-batman')).toBeUndefined()
  })

  it('refuses a password containing the email name, or a few repeated characters', () => {
    expect(refusal('my name is ada.lovelace', 'ada.lovelace@example.com')).toBe('contains_email')
    expect(refusal('abababababab')).toBe('too_simple')
  })
})
