import { describe, expect, it } from 'vitest'
import { electronicIban, ibanProblem } from './iban'

describe('ibanProblem: an IBAN checked as it is typed', () => {
  it('accepts valid IBANs of several countries, typed with spaces and in lower case', () => {
    expect(ibanProblem('DE89 3704 0044 0532 0130 00')).toBeUndefined()
    expect(ibanProblem('fr1420041010050500013m02606')).toBeUndefined()
    expect(ibanProblem('NO9386011117947')).toBeUndefined()
    expect(ibanProblem('MT84MALT011000012345MTLCAST001S')).toBeUndefined()
  })

  it('finds a mistyped digit and two swapped digits by the mod-97 checksum', () => {
    expect(ibanProblem('DE89370400440532013001')).toMatch(/check digits do not match/)
    expect(ibanProblem('DE89370400440532010300')).toMatch(/check digits do not match/)
  })

  it('names what is missing while the IBAN is still being typed', () => {
    expect(ibanProblem('')).toMatch(/starts with the two letters/)
    expect(ibanProblem('12')).toMatch(/starts with the two letters/)
    expect(ibanProblem('DEX')).toMatch(/two check digits/)
    expect(ibanProblem('DE89 3704')).toBe('Too short: 8 characters; an IBAN has at least 15.')
    expect(ibanProblem('DE89-3704-0044-0532-0130-00')).toMatch(/only letters and digits/)
    expect(ibanProblem(`DE89${'0'.repeat(31)}`)).toBe('Too long: 35 characters; an IBAN has at most 34.')
  })

  it('gives the electronic form the API stores: no spaces, upper case', () => {
    expect(electronicIban(' de89 3704 0044 0532 0130 00 ')).toBe('DE89370400440532013000')
  })
})
