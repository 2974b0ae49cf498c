import { describe, expect, it } from 'vitest'
import {
  BankFileError,
  writePain001,
  writePain008,
  type BankFile,
  type BankFileProblem,
  type ChargeBearer,
  type DirectDebitScheme,
  type Pain001Version,
  type SequenceType,
} from '../../../src/connectivity/bank-files/index.js'
import {
  COUNTERPARTIES,
  creditTransfer,
  creditTransferBatch,
  creditTransferInformation,
  directDebit,
  directDebitBatch,
  directDebitInformation,
  message,
  numbered,
  ownAccount,
} from './batches.js'

/** What the writers refuse to write: every value the schema (or the EPC rule they keep) would refuse, named by its input field. */

function problemsOf(write: () => BankFile): BankFileProblem[] {
  try {
    write()
  } catch (error) {
    if (error instanceof BankFileError) return error.problems
    throw error
  }
  throw new Error('the batch was written')
}

const TX = 'paymentInformation.0.transactions.0'

/** A credit transfer batch of one payment information and one transaction, with parts replaced. */
function transfer(transaction: Parameters<typeof creditTransfer>[1] = {}, information: Parameters<typeof creditTransferInformation>[2] = {}, version: Pain001Version = 'pain.001.001.09') {
  return () => writePain001(creditTransferBatch(version, [creditTransferInformation('P-1', [creditTransfer(1, transaction)], information)]))
}

function debit(transaction: Parameters<typeof directDebit>[1] = {}, information: Parameters<typeof directDebitInformation>[2] = {}) {
  return () => writePain008(directDebitBatch('pain.008.001.08', [directDebitInformation('P-1', [directDebit(1, transaction)], information)]))
}

describe('the pain writers refuse', () => {
  it.each<[string, () => BankFile, string, RegExp]>([
    ['a name of 71 characters', transfer({ creditor: { ...COUNTERPARTIES.plain!, name: 'n'.repeat(71) } }), `${TX}.creditor.name`, /71 characters; at most 70/],
    ['an empty name', transfer({}, { debtor: ownAccount({ name: '' }) }), 'paymentInformation.0.debtor.name', /is empty/],
    ['a line break in a name', transfer({ creditor: { ...COUNTERPARTIES.plain!, name: 'Anna\nSchmidt' } }), `${TX}.creditor.name`, /control character/],
    ['a NUL character', transfer({ remittance: { unstructured: 'a\u0000b' } }), `${TX}.remittance.unstructured`, /control character/],
    ['a lone surrogate', transfer({ remittance: { unstructured: 'broken \uD83D' } }), `${TX}.remittance.unstructured`, /XML cannot carry/],
    ['remittance text of 141 characters', transfer({ remittance: { unstructured: 'r'.repeat(141) } }), `${TX}.remittance.unstructured`, /141 characters; at most 140/],
    ['a creditor reference of 36 characters', transfer({ remittance: { creditorReference: { reference: 'R'.repeat(36) } } }), `${TX}.remittance.creditorReference.reference`, /at most 35/],
    ['an end-to-end id of 36 characters', transfer({ endToEndId: 'E'.repeat(36) }), `${TX}.endToEndId`, /36 characters; at most 35/],
    ['an end-to-end id outside the SEPA set', transfer({ endToEndId: 'E2E_ü' }), `${TX}.endToEndId`, /may only contain/],
    ['an end-to-end id starting with "/"', transfer({ endToEndId: '/E2E' }), `${TX}.endToEndId`, /must not start or end with/],
    ['an instruction id containing "//"', transfer({ instructionId: 'A//B' }), `${TX}.instructionId`, /contain "\/\/"/],
    ['an IBAN with spaces', transfer({ creditor: { ...COUNTERPARTIES.plain!, iban: 'FR14 2004 1010 0505 0001 3M02 606' } }), `${TX}.creditor.iban`, /not an IBAN/],
    ['a BIC of lower-case letters', transfer({ creditor: { ...COUNTERPARTIES.plain!, bic: 'bnpafrpp' } }), `${TX}.creditor.bic`, /not a BIC/],
    ['a BIC the 2009 schemas do not allow', transfer({ creditor: { ...COUNTERPARTIES.plain!, bic: 'B1PAFRPP' } }, {}, 'pain.001.001.03'), `${TX}.creditor.bic`, /not a BIC/],
    ['an amount of zero', transfer({ amount: { value: 0, currency: 'EUR' } }), `${TX}.amount.value`, /positive whole number/],
    ['a negative amount', transfer({ amount: { value: -5, currency: 'EUR' } }), `${TX}.amount.value`, /positive whole number/],
    ['a fractional number of minor units', transfer({ amount: { value: 15.5, currency: 'EUR' } }), `${TX}.amount.value`, /positive whole number/],
    ['an amount past 2^53', transfer({ amount: { value: 2 ** 53, currency: 'EUR' } }), `${TX}.amount.value`, /below 2\^53/],
    ['a currency ISO 4217 does not have', transfer({ amount: { value: 100, currency: 'EUX' } }), `${TX}.amount.currency`, /ISO 4217/],
    ['gold, which has no minor units', transfer({ amount: { value: 100, currency: 'XAU' } }), `${TX}.amount.currency`, /ISO 4217/],
    ['a lower-case currency', transfer({}, { debtor: ownAccount({ currency: 'eur' }) }), 'paymentInformation.0.debtor.currency', /ISO 4217/],
    ['a date that does not exist', transfer({}, { requestedExecutionDate: '2026-02-29' }), 'paymentInformation.0.requestedExecutionDate', /calendar date/],
    ['a date with a time', transfer({}, { requestedExecutionDate: '2026-03-03T10:00:00Z' }), 'paymentInformation.0.requestedExecutionDate', /calendar date/],
    ['a town name of 36 characters', transfer({ creditor: { ...COUNTERPARTIES.plain!, address: { townName: 'T'.repeat(36), country: 'FR' } } }), `${TX}.creditor.address.townName`, /at most 35/],
    ['a country that is no ISO code', transfer({ creditor: { ...COUNTERPARTIES.plain!, address: { townName: 'Paris', country: 'France' } } }), `${TX}.creditor.address.country`, /country code/],
    ['a service level in lower case', transfer({}, { serviceLevel: 'sepa' }), 'paymentInformation.0.serviceLevel', /upper-case/],
    ['a purpose code of five letters', transfer({ purpose: 'SALAR' }), `${TX}.purpose`, /at most 4/],
    ['a charge bearer outside the code set', transfer({}, { chargeBearer: 'BOTH' as ChargeBearer }), 'paymentInformation.0.chargeBearer', /one of SLEV, DEBT, CRED, SHAR/],
    ['a sequence type outside the code set', debit({}, { sequenceType: 'ONCE' as SequenceType }), 'paymentInformation.0.sequenceType', /one of FRST, RCUR, FNAL, OOFF/],
    ['the retired COR1 scheme', debit({}, { localInstrument: 'COR1' as DirectDebitScheme }), 'paymentInformation.0.localInstrument', /one of CORE, B2B/],
    ['a mandate id with "&"', debit({ mandate: { id: 'M&1', signatureDate: '2025-01-01' } }), `${TX}.mandate.id`, /may only contain/],
    ['a mandate signed on no date', debit({ mandate: { id: 'M-1', signatureDate: '01.01.2025' } }), `${TX}.mandate.signatureDate`, /calendar date/],
    ['a creditor identifier of 36 characters', debit({}, { creditorSchemeId: 'DE98ZZZ'.padEnd(36, '9') }), 'paymentInformation.0.creditorSchemeId', /at most 35/],
  ])('%s', (_, write, field, error) => {
    const problems = problemsOf(write)
    expect(problems.map((problem) => problem.field)).toEqual([field])
    expect(problems[0]!.error).toMatch(error)
  })

  it('a street and building number longer than an address line, in the 2009 version only', () => {
    const creditor = { ...COUNTERPARTIES.plain!, address: { streetName: 'S'.repeat(60), buildingNumber: '12345678901', townName: 'Paris', country: 'FR' } }
    expect(problemsOf(transfer({ creditor }, {}, 'pain.001.001.03'))).toEqual([
      { field: `${TX}.creditor.address.streetName`, error: 'with the building number makes an address line of more than 70 characters' },
    ])
    expect(transfer({ creditor })().xml).toContain(`<StrtNm>${'S'.repeat(60)}</StrtNm>`)
  })

  it('ids repeated within the message, which status reports could not tell apart', () => {
    const write = () =>
      writePain001(
        creditTransferBatch('pain.001.001.09', [
          creditTransferInformation('P-1', [creditTransfer(1), creditTransfer(2, { endToEndId: 'E2E-1' })]),
          creditTransferInformation('P-1', [creditTransfer(3, { instructionId: 'INSTR-1' })]),
        ]),
      )
    expect(problemsOf(write)).toEqual([
      { field: 'paymentInformation.0.transactions.1.endToEndId', error: 'repeats end-to-end id "E2E-1" of the same message' },
      { field: 'paymentInformation.1.paymentInformationId', error: 'repeats payment information id "P-1" of the same message' },
      { field: 'paymentInformation.1.transactions.0.instructionId', error: 'repeats instruction id "INSTR-1" of the same message' },
    ])
  })

  it('a control sum past the 18 digits of DecimalNumber', () => {
    const largest = { value: Number.MAX_SAFE_INTEGER, currency: 'EUR' }
    const write = () => writePain001(creditTransferBatch('pain.001.001.09', [creditTransferInformation('P-1', numbered(200, (n) => creditTransfer(n, { amount: largest })))]))
    expect(problemsOf(write).map((problem) => problem.field)).toEqual(['paymentInformation.0.transactions', 'paymentInformation'])
  })

  it('a message without payment informations, or one without transactions', () => {
    expect(problemsOf(() => writePain001(creditTransferBatch('pain.001.001.09', [])))).toEqual([{ field: 'paymentInformation', error: 'must hold at least one payment information' }])
    expect(problemsOf(() => writePain008(directDebitBatch('pain.008.001.02', [directDebitInformation('P-1', [])])))).toEqual([
      { field: 'paymentInformation.0.transactions', error: 'must hold at least one transaction' },
    ])
  })

  it('a creation time that is no time, and an initiating party with a faulty identifier', () => {
    const header = message({ creationDateTime: new Date('not a date'), initiatingParty: { name: 'Kassa', organisationId: { other: { id: 'I'.repeat(36), scheme: { code: 'tx' } } } } })
    const write = () => writePain001(creditTransferBatch('pain.001.001.09', [creditTransferInformation('P-1', [creditTransfer(1)])], header))
    expect(problemsOf(write).map((problem) => problem.field)).toEqual([
      'message.creationDateTime',
      'message.initiatingParty.organisationId.other.id',
      'message.initiatingParty.organisationId.other.scheme.code',
    ])
  })

  it('with every problem of the batch at once, and the message type in the error', () => {
    const write = transfer({ endToEndId: '', amount: { value: 0, currency: 'EUR' }, creditor: { name: 'n'.repeat(71), iban: 'XX' } }, { requestedExecutionDate: 'tomorrow' })
    expect(() => write()).toThrow(/^Cannot write pain\.001\.001\.09: paymentInformation\.0\.requestedExecutionDate is not a calendar date/)
    expect(problemsOf(write).map((problem) => problem.field)).toEqual([
      'paymentInformation.0.requestedExecutionDate',
      `${TX}.amount.value`,
      `${TX}.endToEndId`,
      `${TX}.creditor.name`,
      `${TX}.creditor.iban`,
    ])
  })
})
