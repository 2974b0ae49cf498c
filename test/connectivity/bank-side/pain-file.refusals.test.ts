import { describe, expect, it } from 'vitest'
import { writePain001, writePain008 } from '../../../src/connectivity/bank-files/index.js'
import { readPaymentFile } from '../../../src/connectivity/bank-side/index.js'
import { ApiError } from '../../../src/http/errors.js'
import { creditTransfer, creditTransferBatch, creditTransferInformation, directDebit, directDebitBatch, directDebitInformation } from '../bank-files/batches.js'

/** Issue 12, the bank's side: what readPaymentFile refuses — with the error a file upload answers — and what it shrugs off. */

const transfer = writePain001(creditTransferBatch('pain.001.001.09', [creditTransferInformation('PMTINF-1', [creditTransfer(1)])])).xml
const debit = writePain008(directDebitBatch('pain.008.001.02', [directDebitInformation('PMTINF-1', [directDebit(1)])])).xml

function refusal(xml: string): { status: number; code: string; detail?: string; field?: string; message: string } {
  try {
    readPaymentFile(xml)
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    return { status: error.status, code: error.code, detail: error.details?.[0]?.code, field: error.details?.[0]?.field, message: error.message }
  }
  throw new Error('readPaymentFile accepted the file')
}

describe('readPaymentFile refuses', () => {
  it('a DOCTYPE, with or without entities (no entity is ever expanded): 400', () => {
    const laughs = '<!DOCTYPE Document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>\n'
    const external = '<!DOCTYPE Document [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n'
    expect(refusal(transfer.replace('<Document', `${laughs}<Document`).replace('Kassa Demo GmbH', '&b;'))).toMatchObject({ status: 400, detail: 'doctype_not_allowed' })
    expect(refusal(transfer.replace('<Document', `${external}<Document`).replace('Anna Schmidt', '&secret;'))).toMatchObject({ status: 400, detail: 'doctype_not_allowed' })
    expect(refusal(transfer.replace('<Document', '<!DOCTYPE Document>\n<Document'))).toMatchObject({ status: 400, detail: 'doctype_not_allowed' })
  })

  it('malformed XML, an undeclared entity and text that is no XML: 400', () => {
    expect(refusal(transfer.slice(0, -30))).toMatchObject({ status: 400, detail: 'malformed_xml' })
    expect(refusal(transfer.replace('</PmtInf>', '</PmtInfo>'))).toMatchObject({ status: 400, detail: 'malformed_xml' })
    expect(refusal(transfer.replace('Anna Schmidt', 'Anna &undeclared;'))).toMatchObject({ status: 400, detail: 'malformed_xml' })
    expect(refusal('not xml at all')).toMatchObject({ status: 400, code: 'invalid_request' })
  })

  it('another message, another version or no ISO namespace: 422, once the file proved well-formed', () => {
    expect(refusal(transfer.replace('pain.001.001.09', 'pain.001.001.12'))).toMatchObject({ status: 422, code: 'unsupported_message', message: expect.stringContaining('pain.001.001.12') })
    expect(refusal('<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.054.001.08"><BkToCstmrDbtCdtNtfctn/></Document>')).toMatchObject({ status: 422 })
    expect(refusal(transfer.replace(/ xmlns="[^"]+"/, ''))).toMatchObject({ status: 422, code: 'unsupported_message' })
    expect(refusal(`<Envelope>${transfer.replace(/^<\?xml[^>]*>\n/, '')}</Envelope>`)).toMatchObject({ status: 422 })
    expect(refusal(transfer.replace('pain.001.001.09', 'pain.001.001.12').slice(0, -30))).toMatchObject({ status: 400, detail: 'malformed_xml' })
  })

  it('a body that is not its namespace’s message: 400', () => {
    expect(refusal(transfer.replace('pain.001.001.09', 'pain.008.001.08'))).toMatchObject({ status: 400, field: 'CstmrDrctDbtInitn' })
  })

  it('a missing MsgId, CreDtTm, NbOfTxs, PmtInfId, EndToEndId, mandate id or own IBAN: 400 naming the element', () => {
    const without = (xml: string, pattern: RegExp) => refusal(xml.replace(pattern, ''))
    expect(without(transfer, /<MsgId>[^<]*<\/MsgId>/)).toMatchObject({ status: 400, field: 'GrpHdr.MsgId' })
    expect(without(transfer, /<CreDtTm>[^<]*<\/CreDtTm>/)).toMatchObject({ status: 400, field: 'GrpHdr.CreDtTm' })
    expect(without(transfer, /<NbOfTxs>[^<]*<\/NbOfTxs>/)).toMatchObject({ status: 400, field: 'GrpHdr.NbOfTxs' })
    expect(without(transfer, /<PmtInfId>[^<]*<\/PmtInfId>/)).toMatchObject({ status: 400, field: 'PmtInf[1].PmtInfId' })
    expect(without(transfer, /<EndToEndId>[^<]*<\/EndToEndId>/)).toMatchObject({ status: 400, field: 'PmtInf[1].CdtTrfTxInf[1].PmtId.EndToEndId' })
    expect(without(transfer, /<IBAN>DE[^<]*<\/IBAN>/)).toMatchObject({ status: 400, field: 'PmtInf[1].DbtrAcct.Id.IBAN' })
    expect(without(transfer, /<ReqdExctnDt>[\s\S]*?<\/ReqdExctnDt>/)).toMatchObject({ status: 400, field: 'PmtInf[1].ReqdExctnDt' })
    expect(without(debit, /<MndtId>[^<]*<\/MndtId>/)).toMatchObject({ status: 400, field: 'PmtInf[1].DrctDbtTxInf[1].DrctDbtTx.MndtRltdInf.MndtId' })
    expect(without(transfer, /<PmtInf>[\s\S]*<\/PmtInf>/)).toMatchObject({ status: 400, field: 'CstmrCdtTrfInitn' })
  })

  it('an amount that is not exact in its currency, negative, in exponent form, without or with an unknown Ccy: 400', () => {
    const amount = (replacement: string) => refusal(transfer.replace(/<InstdAmt Ccy="EUR">[^<]*<\/InstdAmt>/, replacement))
    for (const replacement of [
      '<InstdAmt Ccy="EUR">1.015</InstdAmt>',
      '<InstdAmt Ccy="JPY">10.5</InstdAmt>',
      '<InstdAmt Ccy="EUR">-1.00</InstdAmt>',
      '<InstdAmt Ccy="EUR">1e3</InstdAmt>',
      '<InstdAmt Ccy="EUR">99999999999999999.99</InstdAmt>',
      '<InstdAmt>1.00</InstdAmt>',
      '<InstdAmt Ccy="XXX">1.00</InstdAmt>',
      '<InstdAmt Ccy="ABC">1.00</InstdAmt>',
    ]) {
      expect(amount(replacement), replacement).toMatchObject({ status: 400, field: 'PmtInf[1].CdtTrfTxInf[1].Amt.InstdAmt' })
    }
    expect(readPaymentFile(transfer.replace(/<InstdAmt Ccy="EUR">[^<]*<\/InstdAmt>/, '<InstdAmt Ccy="EUR">0012.500</InstdAmt>')).paymentInformations[0]!.transactions[0]!.amount).toEqual({ value: 1250, currency: 'EUR' })
  })

  it('a payment method other than the message’s, a BtchBookg or NbOfTxs that is none: 400', () => {
    expect(refusal(transfer.replace('<PmtMtd>TRF</PmtMtd>', '<PmtMtd>CHK</PmtMtd>'))).toMatchObject({ status: 400, field: 'PmtInf[1].PmtMtd' })
    expect(refusal(transfer.replace('<BtchBookg>true</BtchBookg>', '<BtchBookg>yes</BtchBookg>'))).toMatchObject({ status: 400, field: 'PmtInf[1].BtchBookg' })
    expect(refusal(transfer.replace(/<NbOfTxs>1<\/NbOfTxs>/, '<NbOfTxs>one</NbOfTxs>'))).toMatchObject({ status: 400, field: 'GrpHdr.NbOfTxs' })
  })
})

describe('readPaymentFile shrugs off', () => {
  it('elements it does not read, a __proto__ element, prefixes and a UTF-8 byte order mark', () => {
    const extra = transfer
      .replace('<PmtMtd>', '<__proto__><polluted>yes</polluted></__proto__><PmtMtd>')
      .replace('<PmtId>', '<Unknown><Deep>x</Deep></Unknown><PmtId>')
    const read = readPaymentFile(extra)
    expect(read.paymentInformations[0]!.transactions[0]!.endToEndId).toBe('E2E-1')
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const prefixed = transfer.replace(/<(\/?)([A-Za-z])/g, '<$1p:$2').replace('xmlns=', 'xmlns:p=')
    expect(readPaymentFile(prefixed)).toEqual(readPaymentFile(transfer))
    expect(readPaymentFile(`\uFEFF${transfer}`).messageId).toBe('MSG-2026-0001')
  })
})
