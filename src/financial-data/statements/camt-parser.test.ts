import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { parseCamt } from './camt-parser.js'

const NS = 'urn:iso:std:iso:20022:tech:xsd'

/** A one-entry message of the given namespace; `entry` replaces the default entry. */
function message(namespace: string, options: { root?: string; item?: string; entry?: string; prefix?: string } = {}): string {
  const p = options.prefix ? `${options.prefix}:` : ''
  const tag = (name: string, content: string) => `<${p}${name}>${content}</${p}${name}>`
  const entry =
    options.entry ??
    tag('Ntry', `${tag('Amt Ccy="EUR"', '0012.50').replace(`</${p}Amt Ccy="EUR">`, `</${p}Amt>`)}${tag('CdtDbtInd', 'DBIT')}${tag('Sts', 'BOOK')}${tag('BookgDt', tag('Dt', '2026-03-02'))}`)
  const body = tag(
    options.item ?? 'Stmt',
    `${tag('Id', 'S-1')}${tag('Acct', `${tag('Id', tag('IBAN', 'DE89370400440532013000'))}${tag('Ccy', 'EUR')}`)}${entry}`,
  )
  const xmlns = options.prefix ? `xmlns:${options.prefix}="${namespace}"` : `xmlns="${namespace}"`
  return `<?xml version="1.0" encoding="UTF-8"?>\n<${p}Document ${xmlns}>${tag(options.root ?? 'BkToCstmrStmt', `${tag('GrpHdr', tag('MsgId', 'M-1'))}${body}`)}</${p}Document>`
}

function rejection(xml: string): ApiError {
  try {
    parseCamt(xml)
  } catch (error) {
    if (error instanceof ApiError) return error
    throw error
  }
  throw new Error('parseCamt accepted the document')
}

describe('message detection', () => {
  it.each(['001.02', '001.03', '001.04', '001.05', '001.06', '001.07', '001.08'])('reads camt.053.%s from the Document namespace', (version) => {
    const parsed = parseCamt(message(`${NS}:camt.053.${version}`))
    expect(parsed).toMatchObject({ kind: 'camt.053', version, messageId: 'M-1' })
    expect(parsed.statements).toHaveLength(1)
    expect(parsed.statements[0]).toMatchObject({ path: 'Stmt[1]', id: 'S-1', account: { iban: 'DE89370400440532013000', currency: 'EUR' } })
  })

  it('reads camt.052 account reports and camt.054 notifications', () => {
    const report = parseCamt(message(`${NS}:camt.052.001.02`, { root: 'BkToCstmrAcctRpt', item: 'Rpt' }))
    expect(report).toMatchObject({ kind: 'camt.052', statements: [{ path: 'Rpt[1]', entries: [{ path: 'Rpt[1].Ntry[1]' }] }] })
    const notification = parseCamt(message(`${NS}:camt.054.001.08`, { root: 'BkToCstmrDbtCdtNtfctn', item: 'Ntfctn' }))
    expect(notification).toMatchObject({ kind: 'camt.054', statements: [{ path: 'Ntfctn[1]' }] })
  })

  it('reads prefixed documents, documents in an envelope beside their AppHdr, and a UTF-8 byte order mark', () => {
    expect(parseCamt(message(`${NS}:camt.053.001.04`, { prefix: 'ns2' })).statements[0]!.entries).toHaveLength(1)
    const enveloped = `<Envelope><AppHdr xmlns="urn:iso:std:iso:20022:tech:xsd:head.001.001.01"><BizMsgIdr>B-1</BizMsgIdr></AppHdr>${message(`${NS}:camt.053.001.08`).replace(/^<\?xml[^>]*>\n/, '')}</Envelope>`
    expect(parseCamt(enveloped)).toMatchObject({ kind: 'camt.053', version: '001.08' })
    expect(parseCamt(`\uFEFF${message(`${NS}:camt.053.001.02`)}`).kind).toBe('camt.053')
  })

  it('rejects other messages, unknown versions, a missing namespace and a body that does not match its namespace', () => {
    expect(rejection(message(`${NS}:pain.001.001.03`, { root: 'CstmrCdtTrfInitn' })).message).toContain('pain.001.001.03 (Document/CstmrCdtTrfInitn)')
    expect(rejection(message(`${NS}:camt.053.001.09`)).message).toContain('camt.053.001.09')
    expect(rejection(message('urn:example:statement')).message).toContain('no ISO 20022 namespace')
    const mismatch = rejection(message(`${NS}:camt.053.001.02`, { root: 'BkToCstmrAcctRpt' }))
    expect(mismatch.details).toEqual([expect.objectContaining({ field: 'Document.BkToCstmrAcctRpt' })])
    expect(rejection('<Report/>').details).toEqual([expect.objectContaining({ code: 'unsupported_message', field: 'Report' })])
  })

  it('rejects malformed XML with the line and column of the fault', () => {
    const error = rejection('<?xml version="1.0"?>\n<Document>\n  <BkToCstmrStmt>\n  </BkToCstmrStm>\n</Document>')
    expect(error.status).toBe(400)
    expect(error.details).toEqual([{ code: 'malformed_xml', field: 'line 4, column 3', error: expect.stringContaining("closing tag 'BkToCstmrStmt'") }])
  })
})

describe('entries', () => {
  const v08 = `${NS}:camt.053.001.08`

  it('keeps values as the text the bank wrote and decodes entities', () => {
    const [entry] = parseCamt(message(v08)).statements[0]!.entries
    expect(entry).toMatchObject({ amount: { value: '0012.50', currency: 'EUR' }, creditDebit: 'DBIT', status: 'BOOK', bookingDate: '2026-03-02', reversal: false })
    const named = parseCamt(
      message(v08, { entry: '<Ntry><Sts><Cd>BOOK</Cd></Sts><NtryDtls><TxDtls><RltdPties><Dbtr><Pty><Nm>Fish &amp; Chips &#214;y</Nm></Pty></Dbtr></RltdPties></TxDtls></NtryDtls></Ntry>' }),
    )
    expect(named.statements[0]!.entries[0]!.details[0]!.debtor).toEqual({ name: 'Fish & Chips Öy' })
  })

  it('reads the .02 shapes: Sts text, Dbtr/Nm, BIC, AmtDtls/TxAmt', () => {
    const entry = `<Ntry><Amt Ccy="EUR">10.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts>BOOK</Sts><BookgDt><DtTm>2026-03-02T23:30:00+01:00</DtTm></BookgDt><ValDt><Dt>2026-03-03</Dt></ValDt>
      <NtryDtls><TxDtls><Refs><EndToEndId>NOTPROVIDED</EndToEndId><MndtId>M-7</MndtId></Refs><AmtDtls><TxAmt><Amt Ccy="EUR">10.00</Amt></TxAmt></AmtDtls>
      <RltdPties><Dbtr><Nm>Payer</Nm></Dbtr><DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct></RltdPties><RltdAgts><DbtrAgt><FinInstnId><BIC>COBADEFFXXX</BIC></FinInstnId></DbtrAgt></RltdAgts>
      <RmtInf><Ustrd>line one</Ustrd><Ustrd>line two</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`
    const [parsed] = parseCamt(message(`${NS}:camt.053.001.02`, { entry })).statements[0]!.entries
    expect(parsed).toMatchObject({ status: 'BOOK', bookingDate: '2026-03-02', valueDate: '2026-03-03' })
    expect(parsed!.details).toEqual([
      {
        path: 'Stmt[1].Ntry[1].NtryDtls.TxDtls[1]',
        amount: { value: '10.00', currency: 'EUR' },
        mandateId: 'M-7',
        debtor: { name: 'Payer', iban: 'DE89370400440532013000', bic: 'COBADEFFXXX' },
        unstructured: ['line one', 'line two'],
        structuredReferences: [],
      },
    ])
  })

  it('reads the .08 shapes: Sts/Cd, Dbtr/Pty/Nm, BICFI, TxDtls/Amt with its CdtDbtInd, RtrInf, a proprietary-only code', () => {
    const entry = `<Ntry><NtryRef>7</NtryRef><Amt Ccy="SEK">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RvslInd>true</RvslInd><Sts><Cd>BOOK</Cd></Sts><BkTxCd><Prtry><Cd>RETUR</Cd></Prtry></BkTxCd>
      <NtryDtls><TxDtls><Amt Ccy="SEK">5.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><RltdPties><Cdtr><Pty><Nm>Payee AB</Nm></Pty></Cdtr><CdtrAcct><Id><Othr><Id>5402-9681</Id></Othr></Id></CdtrAcct></RltdPties>
      <RltdAgts><CdtrAgt><FinInstnId><BICFI>ESSESESSXXX</BICFI></FinInstnId></CdtrAgt></RltdAgts><RmtInf><Strd><CdtrRefInf><Ref>RF18539007547034</Ref></CdtrRefInf></Strd></RmtInf>
      <RtrInf><Rsn><Cd>AC04</Cd></Rsn><AddtlInf>Closed</AddtlInf></RtrInf></TxDtls></NtryDtls><AddtlNtryInf>RETURN</AddtlNtryInf></Ntry>`
    const [parsed] = parseCamt(message(v08, { entry })).statements[0]!.entries
    expect(parsed).toMatchObject({
      entryReference: '7',
      reversal: true,
      bankTransactionCode: { proprietary: { code: 'RETUR' } },
      additionalInfo: 'RETURN',
      details: [
        {
          amount: { value: '5.00', currency: 'SEK' },
          creditDebit: 'CRDT',
          creditor: { name: 'Payee AB', otherAccountId: '5402-9681', bic: 'ESSESESSXXX' },
          structuredReferences: ['RF18539007547034'],
          returnReason: { code: 'AC04', additionalInfo: 'Closed' },
        },
      ],
    })
    expect(parsed!.bankTransactionCode!.domain).toBeUndefined()
  })

  it('numbers transaction details of several NtryDtls groups per group, and reads the batch id', () => {
    const details = '<TxDtls><Refs><EndToEndId>A</EndToEndId></Refs></TxDtls>'
    const entry = `<Ntry><Sts>BOOK</Sts><NtryDtls><Btch><PmtInfId>RUN-1</PmtInfId></Btch>${details}${details}</NtryDtls><NtryDtls>${details}</NtryDtls></Ntry>`
    const [parsed] = parseCamt(message(v08, { entry })).statements[0]!.entries
    expect(parsed!.batchPaymentInformationId).toBe('RUN-1')
    expect(parsed!.details.map((detail) => detail.path)).toEqual([
      'Stmt[1].Ntry[1].NtryDtls[1].TxDtls[1]',
      'Stmt[1].Ntry[1].NtryDtls[1].TxDtls[2]',
      'Stmt[1].Ntry[1].NtryDtls[2].TxDtls[1]',
    ])
  })

  it('locates nodes by line and column', () => {
    const xml = message(v08).replace('<Ntry>', '\n\n   <Ntry>')
    const parsed = parseCamt(xml)
    expect(parsed.lineOf(parsed.statements[0]!.offset)).toEqual({ line: 2, column: expect.any(Number) })
    // An entry is located by its content, which starts right after <Ntry>.
    expect(parsed.lineOf(parsed.statements[0]!.entries[0]!.offset)).toEqual({ line: 4, column: 10 })
    expect(parsed.lineOf(undefined)).toBeUndefined()
  })
})
