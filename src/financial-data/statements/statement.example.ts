/**
 * The request example of POST /financial-data/v2/statements: a day's camt.053.001.08 for the account of the
 * accounts' create example (IBAN DE02120300000000202051), one credit booked on it; the opening balance plus
 * the entry is the closing one, so the example imports as it stands (test/openapi/client-generators.test.ts).
 */
export const STATEMENT_EXAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08">
  <BkToCstmrStmt>
    <GrpHdr>
      <MsgId>DKB-053-20260303-0001</MsgId>
      <CreDtTm>2026-03-03T21:30:00+01:00</CreDtTm>
    </GrpHdr>
    <Stmt>
      <Id>20260303-0001</Id>
      <ElctrncSeqNb>49</ElctrncSeqNb>
      <CreDtTm>2026-03-03T21:30:00+01:00</CreDtTm>
      <Acct>
        <Id><IBAN>DE02120300000000202051</IBAN></Id>
        <Ccy>EUR</Ccy>
      </Acct>
      <Bal>
        <Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">5320.75</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2026-03-03</Dt></Dt>
      </Bal>
      <Bal>
        <Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp>
        <Amt Ccy="EUR">7105.75</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Dt><Dt>2026-03-03</Dt></Dt>
      </Bal>
      <Ntry>
        <Amt Ccy="EUR">1785.00</Amt>
        <CdtDbtInd>CRDT</CdtDbtInd>
        <Sts><Cd>BOOK</Cd></Sts>
        <BookgDt><Dt>2026-03-03</Dt></BookgDt>
        <ValDt><Dt>2026-03-03</Dt></ValDt>
        <AcctSvcrRef>2026030300912001</AcctSvcrRef>
        <BkTxCd><Domn><Cd>PMNT</Cd><Fmly><Cd>RCDT</Cd><SubFmlyCd>ESCT</SubFmlyCd></Fmly></Domn></BkTxCd>
        <NtryDtls>
          <TxDtls>
            <Refs><EndToEndId>RE-2026-0311</EndToEndId></Refs>
            <RltdPties>
              <Dbtr><Pty><Nm>Holzbau Schneider GmbH</Nm></Pty></Dbtr>
              <DbtrAcct><Id><IBAN>DE89370400440532013000</IBAN></Id></DbtrAcct>
            </RltdPties>
            <RmtInf><Ustrd>Invoice 2026-0311</Ustrd></RmtInf>
          </TxDtls>
        </NtryDtls>
      </Ntry>
    </Stmt>
  </BkToCstmrStmt>
</Document>
`
