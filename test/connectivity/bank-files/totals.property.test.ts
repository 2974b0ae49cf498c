import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BankFile, type Counterparty, type MinorAmount, type PainVersion } from '../../../src/connectivity/bank-files/index.js'
import { IBAN, message } from './batches.js'
import { CREDIT_TRANSFERS, DIRECT_DEBITS, type PainKind } from './scenarios.js'
import { parseXml, select, textAt } from './xml-tree.js'
import { xsdErrors } from './xsd-validator.js'

/**
 * NbOfTxs and CtrlSum over random batches, checked against an oracle that works differently from the
 * writer: every amount is scaled to four decimals (the most any ISO 4217 currency has) from a table of minor
 * digits written here, not money.ts's; the written text is read back by moving its decimal point.
 */

const MINOR_DIGITS: Record<string, number> = { EUR: 2, USD: 2, JPY: 0, ISK: 0, KWD: 3, BHD: 3, CLF: 4 }
const SCALE = 4

const amount: fc.Arbitrary<MinorAmount> = fc.record({
  currency: fc.constantFrom(...Object.keys(MINOR_DIGITS)),
  // Now and then the largest amount there is, so that some sums pass the 18 digits a CtrlSum can hold.
  value: fc.oneof(
    { arbitrary: fc.integer({ min: 1, max: 10_000 }), weight: 20 },
    { arbitrary: fc.integer({ min: 1, max: 999_999_999_999 }), weight: 19 },
    { arbitrary: fc.constant(Number.MAX_SAFE_INTEGER), weight: 1 },
  ),
})

/** Payment informations of 1 to 25 amounts each. */
const amountGroups = fc.array(fc.array(amount, { minLength: 1, maxLength: 25 }), { minLength: 1, maxLength: 4 })

function scaled({ value, currency }: MinorAmount): bigint {
  return BigInt(value) * 10n ** BigInt(SCALE - MINOR_DIGITS[currency]!)
}

/** A decimal text as an integer count of 10^-SCALE, and how many decimals it had. */
function readDecimal(text: string): { scaled: bigint; decimals: number } {
  const decimals = text.includes('.') ? text.length - text.indexOf('.') - 1 : 0
  return { scaled: BigInt(text.replace('.', '')) * 10n ** BigInt(SCALE - decimals), decimals }
}

/** The sum as the schema would see it written at `decimals` places: its digit count, less leading zeros. */
function digitsAt(sum: bigint, decimals: number): number {
  return (sum / 10n ** BigInt(SCALE - decimals)).toString().length
}

function writeGroups<V extends PainVersion, I, T>(kind: PainKind<V, I, T>, version: V, groups: MinorAmount[][]): BankFile {
  let n = 0
  return kind.write(
    version,
    groups.map((amounts, p) => kind.information(`P-${p}`, amounts.map((value) => kind.transaction(++n, { amount: value })))),
  )
}

describe.each([
  ['pain.001', CREDIT_TRANSFERS],
  ['pain.008', DIRECT_DEBITS],
] as const)('%s totals', (_, kind: PainKind<PainVersion, unknown, unknown>) => {
  it('NbOfTxs counts and CtrlSum sums exactly, per payment information and message, or the batch is refused when the sum needs more than 18 digits', () => {
    fc.assert(
      fc.property(amountGroups, fc.constantFrom(...kind.versions), (groups, version) => {
        const all = groups.flat()
        const sum = all.reduce((total, value) => total + scaled(value), 0n)
        const decimals = Math.max(...all.map((value) => MINOR_DIGITS[value.currency]!))
        if (digitsAt(sum, decimals) > 18) {
          expect(() => writeGroups(kind, version, groups)).toThrow(/paymentInformation amounts add up to more than the 18 digits/)
          return
        }
        const root = parseXml(writeGroups(kind, version, groups).xml).children[0]!
        expect(textAt(root, 'GrpHdr/NbOfTxs')).toBe(String(all.length))
        expect(readDecimal(textAt(root, 'GrpHdr/CtrlSum')!)).toEqual({ scaled: sum, decimals })
        select(root, 'PmtInf').forEach((information, index) => {
          const amounts = groups[index]!
          expect(textAt(information, 'NbOfTxs')).toBe(String(amounts.length))
          expect(readDecimal(textAt(information, 'CtrlSum')!)).toEqual({
            scaled: amounts.reduce((total, value) => total + scaled(value), 0n),
            decimals: Math.max(...amounts.map((value) => MINOR_DIGITS[value.currency]!)),
          })
          const written = [...select(information, 'CdtTrfTxInf/Amt/InstdAmt'), ...select(information, 'DrctDbtTxInf/InstdAmt')]
          expect(written.map((element) => ({ currency: element.attributes.Ccy, ...readDecimal(element.text) }))).toEqual(
            amounts.map((value) => ({ currency: value.currency, scaled: scaled(value), decimals: MINOR_DIGITS[value.currency]! })),
          )
        })
      }),
      { numRuns: 300 },
    )
  })
})

/** Letters the escaping and the XSD's character counting must get right, and ordinary ones. */
const nameCharacter = fc.constantFrom('&', '<', '>', '"', "'", ']', 'ü', 'ß', 'é', 'Ω', '日', '本', '😀', '€', ' ', 'a', 'Z', '0', '-', '.')
const counterparty: fc.Arbitrary<Counterparty> = fc.record(
  {
    name: fc.string({ unit: nameCharacter, minLength: 1, maxLength: 70 }),
    iban: fc.constantFrom(...Object.values(IBAN)),
    bic: fc.constantFrom('COBADEFFXXX', 'BNPAFRPP', 'ABNANL2A'),
    address: fc.record(
      {
        streetName: fc.string({ unit: nameCharacter, minLength: 1, maxLength: 50 }),
        buildingNumber: fc.stringMatching(/^[0-9]{1,4}[a-z]?$/),
        postCode: fc.stringMatching(/^[0-9A-Z]{4,8}$/),
        townName: fc.string({ unit: nameCharacter, minLength: 1, maxLength: 35 }),
        country: fc.constantFrom('DE', 'FR', 'NL', 'JP'),
      },
      { requiredKeys: ['townName', 'country'] },
    ),
  },
  { requiredKeys: ['name', 'iban'] },
)

describe.each([
  ['pain.001', CREDIT_TRANSFERS],
  ['pain.008', DIRECT_DEBITS],
] as const)('%s of random counterparties', (_, kind: PainKind<PainVersion, unknown, unknown>) => {
  it('is valid against the XSD of every version and gives every name back as written', async () => {
    const batches = fc.sample(fc.array(counterparty, { minLength: 1, maxLength: 8 }), { numRuns: 40, seed: 20_26 })
    const documents = kind.versions.flatMap((version) =>
      batches.map((counterparties) => ({
        version,
        counterparties,
        xml: kind.write(version, [kind.information('P-1', counterparties.map((party, index) => kind.transaction(index + 1, {}, party)))], message()).xml,
      })),
    )
    expect(await xsdErrors(documents)).toEqual(documents.map(() => []))
    for (const { xml, counterparties } of documents) {
      const names = [...select(parseXml(xml), 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/Cdtr/Nm'), ...select(parseXml(xml), 'CstmrDrctDbtInitn/PmtInf/DrctDbtTxInf/Dbtr/Nm')]
      expect(names.map((name) => name.text)).toEqual(counterparties.map((party) => party.name))
    }
  })
})
