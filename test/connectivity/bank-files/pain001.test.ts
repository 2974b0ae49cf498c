import { describe, expect, it } from 'vitest'
import { writePain001 } from '../../../src/connectivity/bank-files/index.js'
import { AMOUNTS, BIC, COUNTERPARTIES, creditTransfer, creditTransferBatch, creditTransferInformation, HOSTILE_NAME, IBAN, LONGEST_NAME, message, numbered, ownAccount } from './batches.js'
import { asDocuments, commonScenarios, CREDIT_TRANSFERS } from './scenarios.js'
import { childNames, parseXml, select, textAt } from './xml-tree.js'
import { xsdErrorsByName } from './xsd-validator.js'

describe.each(CREDIT_TRANSFERS.versions)('%s', (version) => {
  it('is valid against the official XSD in every variation', async () => {
    const files = {
      ...commonScenarios(CREDIT_TRANSFERS, version),
      'SEPA Instant': writePain001(creditTransferBatch(version, [creditTransferInformation('INST-1', [creditTransfer(1)], { localInstrument: 'INST' })])),
    }
    const errors = await xsdErrorsByName(asDocuments(version, files))
    expect(errors).toEqual(Object.fromEntries(Object.keys(files).map((name) => [name, []])))
  })

  it('counts the transactions and sums their amounts per message and per payment information', () => {
    const file = writePain001(
      creditTransferBatch(version, [
        creditTransferInformation('P-1', [creditTransfer(1, { amount: { value: 1502, currency: 'EUR' } }), creditTransfer(2, { amount: { value: 98, currency: 'EUR' } })]),
        creditTransferInformation('P-2', [creditTransfer(3, { amount: { value: 999_999_999_999, currency: 'EUR' } })]),
      ]),
    )
    const root = parseXml(file.xml).children[0]!
    expect(textAt(root, 'GrpHdr/NbOfTxs')).toBe('3')
    expect(textAt(root, 'GrpHdr/CtrlSum')).toBe('10000000015.99')
    expect(select(root, 'PmtInf').map((information) => [textAt(information, 'NbOfTxs'), textAt(information, 'CtrlSum')])).toEqual([
      ['2', '16.00'],
      ['1', '9999999999.99'],
    ])
    expect(file).toMatchObject({ messageType: version, messageId: 'MSG-2026-0001', numberOfTransactions: 3, controlSum: '10000000015.99' })
  })

  it('writes each amount with exactly its currency’s minor digits, and a mixed control sum at the largest', () => {
    const written = Object.values(AMOUNTS)
    const file = writePain001(creditTransferBatch(version, [creditTransferInformation('P-1', written.map(({ amount }, index) => creditTransfer(index + 1, { amount })))]))
    const amounts = select(parseXml(file.xml), 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/Amt/InstdAmt')
    expect(amounts.map((amount) => [amount.attributes.Ccy, amount.text])).toEqual(written.map(({ amount, written }) => [amount.currency, written]))
    // 15.02 + 0.05 + 9999999999.99 + 1502 + 999999999999 + 1.502 + 0.0001 at CLF's four digits.
    expect(file.controlSum).toBe('1010000001517.5621')
  })

  it('keeps every character of names and texts through escaping, as a parser reads them back', () => {
    const file = writePain001(
      creditTransferBatch(
        version,
        [creditTransferInformation('P-1', [creditTransfer(1, { creditor: COUNTERPARTIES.hostileName!, remittance: { unstructured: 'a<b & c>d "e" \'f\' €' } })], { debtor: ownAccount({ name: LONGEST_NAME }) })],
        message({ initiatingParty: { name: 'R&D <Labs>' } }),
      ),
    )
    expect(file.xml).toContain('<Nm>Fish &amp; Chips &lt;&quot;Ltd&quot;&gt; \'Ω\' ]]&gt; Müller-Lüdenscheidt 日本 😀</Nm>')
    const root = parseXml(file.xml).children[0]!
    expect(textAt(root, 'GrpHdr/InitgPty/Nm')).toBe('R&D <Labs>')
    expect(textAt(root, 'PmtInf/Dbtr/Nm')).toBe(LONGEST_NAME)
    expect(textAt(root, 'PmtInf/CdtTrfTxInf/Cdtr/Nm')).toBe(HOSTILE_NAME)
    expect(textAt(root, 'PmtInf/CdtTrfTxInf/RmtInf/Ustrd')).toBe('a<b & c>d "e" \'f\' €')
  })

  it('writes the header, the payment information and the transaction with the values given, in schema order', () => {
    const transaction = creditTransfer(7, { creditor: COUNTERPARTIES.withBic!, purpose: 'SUPP', remittance: { creditorReference: { reference: 'RF18539007547034' } } })
    const root = parseXml(
      writePain001(creditTransferBatch(version, [creditTransferInformation('P-7', [transaction], { batchBooking: false, categoryPurpose: 'SALA', localInstrument: 'INST' })])).xml,
    ).children[0]!
    expect(textAt(root, 'GrpHdr/MsgId')).toBe('MSG-2026-0001')
    // UTC to the second: the milliseconds of 09:30:15.250Z are dropped.
    expect(textAt(root, 'GrpHdr/CreDtTm')).toBe('2026-03-02T09:30:15Z')
    const [information] = select(root, 'PmtInf')
    expect(childNames(information!)).toEqual(['PmtInfId', 'PmtMtd', 'BtchBookg', 'NbOfTxs', 'CtrlSum', 'PmtTpInf', 'ReqdExctnDt', 'Dbtr', 'DbtrAcct', 'DbtrAgt', 'ChrgBr', 'CdtTrfTxInf'])
    expect([textAt(information!, 'PmtMtd'), textAt(information!, 'BtchBookg'), textAt(information!, 'ChrgBr')]).toEqual(['TRF', 'false', 'SLEV'])
    expect(childNames(select(information!, 'PmtTpInf')[0]!)).toEqual(['SvcLvl', 'LclInstrm', 'CtgyPurp'])
    expect([textAt(information!, 'PmtTpInf/SvcLvl/Cd'), textAt(information!, 'PmtTpInf/LclInstrm/Cd'), textAt(information!, 'PmtTpInf/CtgyPurp/Cd')]).toEqual(['SEPA', 'INST', 'SALA'])
    expect([textAt(information!, 'DbtrAcct/Id/IBAN'), textAt(information!, 'DbtrAcct/Ccy')]).toEqual([IBAN.DE, 'EUR'])
    const [written] = select(information!, 'CdtTrfTxInf')
    expect(childNames(written!)).toEqual(['PmtId', 'Amt', 'CdtrAgt', 'Cdtr', 'CdtrAcct', 'Purp', 'RmtInf'])
    expect([textAt(written!, 'PmtId/InstrId'), textAt(written!, 'PmtId/EndToEndId'), textAt(written!, 'CdtrAcct/Id/IBAN'), textAt(written!, 'Purp/Cd')]).toEqual([
      'INSTR-7',
      'E2E-7',
      IBAN.NL,
      'SUPP',
    ])
    expect([textAt(written!, 'RmtInf/Strd/CdtrRefInf/Tp/CdOrPrtry/Cd'), textAt(written!, 'RmtInf/Strd/CdtrRefInf/Ref')]).toEqual(['SCOR', 'RF18539007547034'])
  })

  it('leaves the creditor’s bank out without a BIC, and names the debtor’s bank NOTPROVIDED', () => {
    const root = parseXml(writePain001(creditTransferBatch(version, [creditTransferInformation('P-1', [creditTransfer(1)], { debtor: ownAccount({ bic: undefined }) })])).xml)
    expect(textAt(root, 'CstmrCdtTrfInitn/PmtInf/DbtrAgt/FinInstnId/Othr/Id')).toBe('NOTPROVIDED')
    expect(select(root, 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/CdtrAgt')).toEqual([])
  })

  it('writes a message of many payment informations and transactions whole', () => {
    const informations = numbered(4, (p) => creditTransferInformation(`P-${p}`, numbered(50, (n) => creditTransfer(p * 100 + n))))
    const root = parseXml(writePain001(creditTransferBatch(version, informations)).xml).children[0]!
    expect(textAt(root, 'GrpHdr/NbOfTxs')).toBe('200')
    expect(select(root, 'PmtInf/CdtTrfTxInf/PmtId/EndToEndId').map((id) => id.text)).toEqual(informations.flatMap((p) => p.transactions.map((t) => t.endToEndId)))
  })
})

describe('the differences between pain.001.001.09 and pain.001.001.03', () => {
  const batch = (version: 'pain.001.001.09' | 'pain.001.001.03') =>
    parseXml(writePain001(creditTransferBatch(version, [creditTransferInformation('P-1', [creditTransfer(1, { creditor: COUNTERPARTIES.fullAddress! })])])).xml)
  const v09 = batch('pain.001.001.09')
  const v03 = batch('pain.001.001.03')

  it('declares its own namespace', () => {
    expect(v09.attributes.xmlns).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.09')
    expect(v03.attributes.xmlns).toBe('urn:iso:std:iso:20022:tech:xsd:pain.001.001.03')
  })

  it('writes the requested execution date as ReqdExctnDt/Dt in .09 and as ReqdExctnDt itself in .03', () => {
    expect(textAt(v09, 'CstmrCdtTrfInitn/PmtInf/ReqdExctnDt/Dt')).toBe('2026-03-03')
    expect(select(v03, 'CstmrCdtTrfInitn/PmtInf/ReqdExctnDt/Dt')).toEqual([])
    expect(textAt(v03, 'CstmrCdtTrfInitn/PmtInf/ReqdExctnDt')).toBe('2026-03-03')
  })

  it('names BICs BICFI and AnyBIC in .09, BIC and BICOrBEI in .03', () => {
    expect(textAt(v09, 'CstmrCdtTrfInitn/PmtInf/DbtrAgt/FinInstnId/BICFI')).toBe(BIC.DE)
    expect(textAt(v09, 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/CdtrAgt/FinInstnId/BICFI')).toBe('DEUTDEDBKOE')
    expect(textAt(v09, 'CstmrCdtTrfInitn/GrpHdr/InitgPty/Id/OrgId/AnyBIC')).toBe('DEUTDEFF')
    expect(textAt(v03, 'CstmrCdtTrfInitn/PmtInf/DbtrAgt/FinInstnId/BIC')).toBe(BIC.DE)
    expect(textAt(v03, 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/CdtrAgt/FinInstnId/BIC')).toBe('DEUTDEDBKOE')
    expect(textAt(v03, 'CstmrCdtTrfInitn/GrpHdr/InitgPty/Id/OrgId/BICOrBEI')).toBe('DEUTDEFF')
  })

  it('writes a structured address without AdrLine in .09, Ctry and two AdrLine in .03', () => {
    const [address09] = select(v09, 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/Cdtr/PstlAdr')
    expect(address09!.children.map((child) => [child.name, child.text])).toEqual([
      ['StrtNm', 'Hohe Straße'],
      ['BldgNb', '12a'],
      ['PstCd', '50667'],
      ['TwnNm', 'Köln'],
      ['Ctry', 'DE'],
    ])
    const [address03] = select(v03, 'CstmrCdtTrfInitn/PmtInf/CdtTrfTxInf/Cdtr/PstlAdr')
    expect(address03!.children.map((child) => [child.name, child.text])).toEqual([
      ['Ctry', 'DE'],
      ['AdrLine', 'Hohe Straße 12a'],
      ['AdrLine', '50667 Köln'],
    ])
  })
})
