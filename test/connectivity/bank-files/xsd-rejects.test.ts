import { describe, expect, it } from 'vitest'
import type { PainVersion } from '../../../src/connectivity/bank-files/index.js'
import { COUNTERPARTIES } from './batches.js'
import { CREDIT_TRANSFERS, DIRECT_DEBITS } from './scenarios.js'
import { xsdErrors } from './xsd-validator.js'

/**
 * The validation the other tests rely on can fail: written files edited by hand into what the schema
 * forbids are refused by it, each for the reason given, while the unedited file passes.
 */

const valid: Record<PainVersion, string> = {
  'pain.001.001.09': CREDIT_TRANSFERS.write('pain.001.001.09', [CREDIT_TRANSFERS.information('P-1', [CREDIT_TRANSFERS.transaction(1, {}, COUNTERPARTIES.withBic)])]).xml,
  'pain.001.001.03': CREDIT_TRANSFERS.write('pain.001.001.03', [CREDIT_TRANSFERS.information('P-1', [CREDIT_TRANSFERS.transaction(1, {}, COUNTERPARTIES.withBic)])]).xml,
  'pain.008.001.08': DIRECT_DEBITS.write('pain.008.001.08', [DIRECT_DEBITS.information('P-1', [DIRECT_DEBITS.transaction(1, {}, COUNTERPARTIES.withBic)])]).xml,
  'pain.008.001.02': DIRECT_DEBITS.write('pain.008.001.02', [DIRECT_DEBITS.information('P-1', [DIRECT_DEBITS.transaction(1, {}, COUNTERPARTIES.withBic)])]).xml,
}

interface Edit {
  versions: PainVersion[]
  edit: (xml: string) => string
  /** What the schema's complaint names. */
  error: RegExp
}

const ALL = Object.keys(valid) as PainVersion[]
const V2019: PainVersion[] = ['pain.001.001.09', 'pain.008.001.08']
const V2009: PainVersion[] = ['pain.001.001.03', 'pain.008.001.02']

/** Replaces exactly one occurrence, so an edit that no longer finds its target fails loudly rather than testing nothing. */
function once(xml: string, from: RegExp | string, to: string): string {
  const matches = typeof from === 'string' ? xml.split(from).length - 1 : [...xml.matchAll(new RegExp(from, 'g'))].length
  if (matches !== 1) throw new Error(`${String(from)} occurs ${matches} times`)
  return xml.replace(from, to)
}

const EDITS: Record<string, Edit> = {
  'a name of 141 characters (ISO allows 140)': { versions: ALL, edit: (xml) => once(xml, '<Nm>Jan de Vries</Nm>', `<Nm>${'n'.repeat(141)}</Nm>`), error: /Nm.*maxLength/ },
  'a missing EndToEndId': { versions: ALL, edit: (xml) => once(xml, /<EndToEndId>[^<]*<\/EndToEndId>/, ''), error: /Missing child element.*EndToEndId/ },
  'an empty MsgId': { versions: ALL, edit: (xml) => once(xml, /<MsgId>[^<]*<\/MsgId>/, '<MsgId></MsgId>'), error: /MsgId.*minLength/ },
  'a control sum of 19 digits': { versions: ALL, edit: (xml) => once(xml, /<CtrlSum>[^<]*<\/CtrlSum>\n {6}<InitgPty>/, '<CtrlSum>12345678901234567.89</CtrlSum><InitgPty>'), error: /CtrlSum.*totalDigits/ },
  'an amount of six decimals': { versions: ALL, edit: (xml) => once(xml, /(<InstdAmt Ccy="EUR">)[^<]*/, '$1' + '1.000001'), error: /InstdAmt.*fractionDigits/ },
  'a negative amount': { versions: ALL, edit: (xml) => once(xml, /(<InstdAmt Ccy="EUR">)[^<]*/, '$1' + '-1.00'), error: /InstdAmt.*minInclusive/ },
  'an IBAN with a space': { versions: ALL, edit: (xml) => once(xml, '<IBAN>NL91ABNA0417164300</IBAN>', '<IBAN>NL91 ABNA0417164300</IBAN>'), error: /IBAN.*pattern/ },
  'an unescaped ampersand': { versions: ALL, edit: (xml) => once(xml, '<Nm>Jan de Vries</Nm>', '<Nm>Jan & Vries</Nm>'), error: /EntityRef|xmlParseEntityRef|no name/ },
  '.09’s BICFI named BIC': { versions: V2019, edit: (xml) => once(xml, /<BICFI>ABNANL2A<\/BICFI>/, '<BIC>ABNANL2A</BIC>'), error: /BIC.*not expected/ },
  '.03’s BIC named BICFI': { versions: V2009, edit: (xml) => once(xml, /<BIC>ABNANL2A<\/BIC>/, '<BICFI>ABNANL2A</BICFI>'), error: /BICFI.*not expected/ },
  'a BIC with a digit in its bank code (allowed since 2014, not by the 2009 type)': {
    versions: V2009,
    edit: (xml) => once(xml, '<BIC>ABNANL2A</BIC>', '<BIC>AB1ANL2A</BIC>'),
    error: /BIC.*pattern/,
  },
  '.09’s execution date without Dt': { versions: ['pain.001.001.09'], edit: (xml) => once(xml, /<ReqdExctnDt>\s*<Dt>([^<]*)<\/Dt>\s*<\/ReqdExctnDt>/, '<ReqdExctnDt>$1</ReqdExctnDt>'), error: /ReqdExctnDt/ },
  '.03’s execution date inside Dt': { versions: ['pain.001.001.03'], edit: (xml) => once(xml, /<ReqdExctnDt>([^<]*)<\/ReqdExctnDt>/, '<ReqdExctnDt><Dt>$1</Dt></ReqdExctnDt>'), error: /ReqdExctnDt/ },
  'an execution date that is no date': { versions: ['pain.001.001.03'], edit: (xml) => once(xml, /<ReqdExctnDt>[^<]*<\/ReqdExctnDt>/, '<ReqdExctnDt>2026-02-30</ReqdExctnDt>'), error: /ReqdExctnDt.*ISODate/ },
  'an unknown sequence type': { versions: ['pain.008.001.08', 'pain.008.001.02'], edit: (xml) => once(xml, '<SeqTp>RCUR</SeqTp>', '<SeqTp>ONCE</SeqTp>'), error: /SeqTp.*enumeration/ },
  'a direct debit without the debtor’s bank': { versions: ['pain.008.001.08', 'pain.008.001.02'], edit: (xml) => once(xml, /<DbtrAgt>[\s\S]*?<\/DbtrAgt>/, ''), error: /Dbtr.*Expected is.*DbtrAgt/ },
}

describe('the XSD validation', () => {
  it('passes the unedited files and refuses each edit for its reason', async () => {
    const cases = [
      ...ALL.map((version) => ({ name: `${version} unedited`, version, xml: valid[version], error: undefined })),
      ...Object.entries(EDITS).flatMap(([name, { versions, edit, error }]) => versions.map((version) => ({ name: `${version}: ${name}`, version, xml: edit(valid[version]), error }))),
    ]
    const errors = await xsdErrors(cases)
    const verdicts = cases.map(({ name, error }, index) => ({ name, refused: error === undefined ? errors[index]!.length > 0 : errors[index]!.some((message) => error.test(message)) }))
    expect(verdicts).toEqual(cases.map(({ name, error }) => ({ name, refused: error !== undefined })))
  })

  it('accepts a name of 71 to 140 characters: the 70 Kassa keeps to is the EPC guidelines’ limit, not ISO’s', async () => {
    const errors = await xsdErrors(ALL.map((version) => ({ version, xml: once(valid[version], '<Nm>Jan de Vries</Nm>', `<Nm>${'n'.repeat(140)}</Nm>`) })))
    expect(errors).toEqual(ALL.map(() => []))
  })
})
