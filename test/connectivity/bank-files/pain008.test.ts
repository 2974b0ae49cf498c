import { describe, expect, it } from 'vitest'
import { SEQUENCE_TYPES, writePain008 } from '../../../src/connectivity/bank-files/index.js'
import { BIC, COUNTERPARTIES, CREDITOR_SCHEME_ID, directDebit, directDebitBatch, directDebitInformation, IBAN, ownAccount } from './batches.js'
import { asDocuments, commonScenarios, DIRECT_DEBITS } from './scenarios.js'
import { childNames, parseXml, select, textAt } from './xml-tree.js'
import { xsdErrorsByName } from './xsd-validator.js'

describe.each(DIRECT_DEBITS.versions)('%s', (version) => {
  it('is valid against the official XSD in every variation, every sequence type and both schemes', async () => {
    const files = {
      ...commonScenarios(DIRECT_DEBITS, version),
      ...Object.fromEntries(
        SEQUENCE_TYPES.map((sequenceType) => [`sequence type ${sequenceType}`, writePain008(directDebitBatch(version, [directDebitInformation('P-1', [directDebit(1)], { sequenceType })]))]),
      ),
      'B2B, FRST and RCUR in one file': writePain008(
        directDebitBatch(version, [
          directDebitInformation('P-FRST', [directDebit(1)], { localInstrument: 'B2B', sequenceType: 'FRST' }),
          directDebitInformation('P-RCUR', [directDebit(2), directDebit(3)], { localInstrument: 'B2B', sequenceType: 'RCUR' }),
        ]),
      ),
    }
    const errors = await xsdErrorsByName(asDocuments(version, files))
    expect(errors).toEqual(Object.fromEntries(Object.keys(files).map((name) => [name, []])))
  })

  it('writes the scheme, the creditor identifier and the mandate with the values given, in schema order', () => {
    const file = writePain008(
      directDebitBatch(version, [
        directDebitInformation('P-9', [directDebit(9, { mandate: { id: 'MANDATE/2025-17', signatureDate: '2024-02-29' }, debtor: COUNTERPARTIES.withBic!, purpose: 'INSU' })], {
          localInstrument: 'B2B',
          sequenceType: 'FNAL',
        }),
      ]),
    )
    const [information] = select(parseXml(file.xml), 'CstmrDrctDbtInitn/PmtInf')
    expect(childNames(information!)).toEqual([
      'PmtInfId',
      'PmtMtd',
      'BtchBookg',
      'NbOfTxs',
      'CtrlSum',
      'PmtTpInf',
      'ReqdColltnDt',
      'Cdtr',
      'CdtrAcct',
      'CdtrAgt',
      'ChrgBr',
      'CdtrSchmeId',
      'DrctDbtTxInf',
    ])
    expect(textAt(information!, 'PmtMtd')).toBe('DD')
    expect(childNames(select(information!, 'PmtTpInf')[0]!)).toEqual(['SvcLvl', 'LclInstrm', 'SeqTp'])
    expect([textAt(information!, 'PmtTpInf/SvcLvl/Cd'), textAt(information!, 'PmtTpInf/LclInstrm/Cd'), textAt(information!, 'PmtTpInf/SeqTp')]).toEqual(['SEPA', 'B2B', 'FNAL'])
    expect(textAt(information!, 'ReqdColltnDt')).toBe('2026-03-09')
    expect([textAt(information!, 'CdtrAcct/Id/IBAN'), textAt(information!, 'CdtrAcct/Ccy')]).toEqual([IBAN.DE, 'EUR'])
    expect([textAt(information!, 'CdtrSchmeId/Id/PrvtId/Othr/Id'), textAt(information!, 'CdtrSchmeId/Id/PrvtId/Othr/SchmeNm/Prtry')]).toEqual([CREDITOR_SCHEME_ID, 'SEPA'])
    const [transaction] = select(information!, 'DrctDbtTxInf')
    expect(childNames(transaction!)).toEqual(['PmtId', 'InstdAmt', 'DrctDbtTx', 'DbtrAgt', 'Dbtr', 'DbtrAcct', 'Purp', 'RmtInf'])
    expect(select(transaction!, 'DrctDbtTx/MndtRltdInf')[0]!.children.map((child) => [child.name, child.text])).toEqual([
      ['MndtId', 'MANDATE/2025-17'],
      ['DtOfSgntr', '2024-02-29'],
      ['AmdmntInd', 'false'],
    ])
    expect([textAt(transaction!, 'PmtId/EndToEndId'), textAt(transaction!, 'InstdAmt'), textAt(transaction!, 'DbtrAcct/Id/IBAN')]).toEqual(['E2E-9', '1.09', IBAN.NL])
  })

  it('names both banks NOTPROVIDED without a BIC: the schema requires them in a direct debit', () => {
    const root = parseXml(writePain008(directDebitBatch(version, [directDebitInformation('P-1', [directDebit(1)], { creditor: ownAccount({ bic: undefined }) })])).xml)
    expect(textAt(root, 'CstmrDrctDbtInitn/PmtInf/CdtrAgt/FinInstnId/Othr/Id')).toBe('NOTPROVIDED')
    expect(textAt(root, 'CstmrDrctDbtInitn/PmtInf/DrctDbtTxInf/DbtrAgt/FinInstnId/Othr/Id')).toBe('NOTPROVIDED')
  })

  it('counts and sums per payment information and message', () => {
    const file = writePain008(
      directDebitBatch(version, [
        directDebitInformation('P-FRST', [directDebit(1, { amount: { value: 1, currency: 'EUR' } })], { sequenceType: 'FRST' }),
        directDebitInformation('P-RCUR', [directDebit(2, { amount: { value: 250_00, currency: 'EUR' } }), directDebit(3, { amount: { value: 999_999_999_999, currency: 'EUR' } })]),
      ]),
    )
    const root = parseXml(file.xml).children[0]!
    expect([textAt(root, 'GrpHdr/NbOfTxs'), textAt(root, 'GrpHdr/CtrlSum')]).toEqual(['3', '10000000250.00'])
    expect(select(root, 'PmtInf').map((information) => [textAt(information, 'NbOfTxs'), textAt(information, 'CtrlSum')])).toEqual([
      ['1', '0.01'],
      ['2', '10000000249.99'],
    ])
  })
})

describe('the differences between pain.008.001.08 and pain.008.001.02', () => {
  const written = (version: 'pain.008.001.08' | 'pain.008.001.02') =>
    parseXml(writePain008(directDebitBatch(version, [directDebitInformation('P-1', [directDebit(1, { debtor: COUNTERPARTIES.fullAddress! })])])).xml)
  const v08 = written('pain.008.001.08')
  const v02 = written('pain.008.001.02')

  it('declares its own namespace and writes the collection date the same way', () => {
    expect([v08.attributes.xmlns, v02.attributes.xmlns]).toEqual(['urn:iso:std:iso:20022:tech:xsd:pain.008.001.08', 'urn:iso:std:iso:20022:tech:xsd:pain.008.001.02'])
    expect([textAt(v08, 'CstmrDrctDbtInitn/PmtInf/ReqdColltnDt'), textAt(v02, 'CstmrDrctDbtInitn/PmtInf/ReqdColltnDt')]).toEqual(['2026-03-09', '2026-03-09'])
  })

  it('names BICs BICFI and AnyBIC in .08, BIC and BICOrBEI in .02', () => {
    expect(textAt(v08, 'CstmrDrctDbtInitn/PmtInf/CdtrAgt/FinInstnId/BICFI')).toBe(BIC.DE)
    expect(textAt(v08, 'CstmrDrctDbtInitn/GrpHdr/InitgPty/Id/OrgId/AnyBIC')).toBe('DEUTDEFF')
    expect(textAt(v02, 'CstmrDrctDbtInitn/PmtInf/CdtrAgt/FinInstnId/BIC')).toBe(BIC.DE)
    expect(textAt(v02, 'CstmrDrctDbtInitn/GrpHdr/InitgPty/Id/OrgId/BICOrBEI')).toBe('DEUTDEFF')
  })

  it('writes the debtor’s address structured in .08, as Ctry and two AdrLine in .02', () => {
    expect(childNames(select(v08, 'CstmrDrctDbtInitn/PmtInf/DrctDbtTxInf/Dbtr/PstlAdr')[0]!)).toEqual(['StrtNm', 'BldgNb', 'PstCd', 'TwnNm', 'Ctry'])
    expect(select(v02, 'CstmrDrctDbtInitn/PmtInf/DrctDbtTxInf/Dbtr/PstlAdr')[0]!.children.map((child) => child.text)).toEqual(['DE', 'Hohe Straße 12a', '50667 Köln'])
  })
})
