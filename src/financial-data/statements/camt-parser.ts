import { XMLParser, XMLValidator } from 'fast-xml-parser'
import { ApiError } from '../../http/errors.js'
import {
  MESSAGE_KINDS,
  SUPPORTED_VERSIONS,
  type CamtAmount,
  type CamtBalance,
  type CamtBankTransactionCode,
  type CamtEntry,
  type CamtKind,
  type CamtMessage,
  type CamtParty,
  type CamtStatement,
  type CamtTransactionDetails,
} from './camt-model.js'
import { all, child, isNode, offsetOf, text, type Node } from './camt-xml.js'

export * from './camt-model.js'

/**
 * ISO 20022 bank-to-customer cash management messages → a typed model. Extraction only: values stay
 * the strings the bank wrote (amounts as decimal text, codes as given); the rules — required fields,
 * exact minor units, currencies, sums — are statement.validation.ts's. Every node carries its `path`
 * in the message ("Stmt[1].Ntry[3]", 1-based like XPath) and its character `offset`, so an error can
 * say where it is (see `CamtMessage.lineOf`).
 */

const NAMESPACE = /^urn:iso:std:iso:20022:tech:xsd:([a-z]{4}\.\d{3})\.(\d{3}\.\d{2})$/


const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  // Values stay text: "0012" must not become 12, nor "1250.10" a float.
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  // Prefixed documents (<ns2:Document>) read like unprefixed ones; xmlns attributes are kept to detect the message.
  transformTagName: (name: string) => name.slice(name.indexOf(':') + 1),
  // Callbacks get no path strings: building one per tag costs a tenth of the parse.
  jPath: false,
  processEntities: true,
  // Also decodes numeric character references (&#214;, &#xE4;), which XML has and the default leaves alone.
  htmlEntities: true,
} as const

/**
 * The document without its entries: each Ntry stays raw text, parsed later in batches of ENTRY_BATCH.
 * One tree of a 100,000-entry statement would hold a gigabyte until the end of the parse; batches
 * die young, which keeps memory at a third and saves a fifth of the time, mostly garbage collection.
 */
const documentParser = new XMLParser({ ...OPTIONS, captureMetaData: true, stopNodes: ['*.Ntry'] })
const entryParser = new XMLParser(OPTIONS)
const ENTRY_BATCH = 500

function amountOf(node: unknown): CamtAmount | undefined {
  const value = text(node)
  if (value === undefined) return undefined
  const currency = isNode(node) && typeof node['@Ccy'] === 'string' ? node['@Ccy'] : undefined
  return { value, ...(currency !== undefined ? { currency } : {}) }
}

/** Dt, or the date part of DtTm: the bank's local date, which is what a booking date is. */
function dateOf(node: unknown): string | undefined {
  const date = text(node, 'Dt')
  if (date !== undefined) return date
  const dateTime = text(node, 'DtTm')
  return dateTime?.slice(0, 10)
}

/** Drops the fields that are undefined, in place: absent elements stay absent in the model. */
function compact<T extends object>(value: T): T {
  for (const key in value) if (value[key] === undefined) delete value[key]
  return value
}

/** A party (.02–.07: Nm directly; .08: Pty/Nm or Agt), its account and its agent's BIC. */
function partyOf(party: unknown, account: unknown, agent: unknown): CamtParty | undefined {
  const result = compact<CamtParty>({
    name: text(party, 'Nm') ?? text(party, 'Pty', 'Nm') ?? text(party, 'Agt', 'FinInstnId', 'Nm'),
    iban: text(account, 'Id', 'IBAN'),
    otherAccountId: text(account, 'Id', 'Othr', 'Id'),
    bic: text(agent, 'FinInstnId', 'BIC') ?? text(agent, 'FinInstnId', 'BICFI'),
  })
  return Object.keys(result).length > 0 ? result : undefined
}

function bankTransactionCodeOf(node: unknown): CamtBankTransactionCode | undefined {
  if (!isNode(node)) return undefined
  const proprietaryCode = text(node, 'Prtry', 'Cd')
  const result = compact<CamtBankTransactionCode>({
    domain: text(node, 'Domn', 'Cd'),
    family: text(node, 'Domn', 'Fmly', 'Cd'),
    subfamily: text(node, 'Domn', 'Fmly', 'SubFmlyCd'),
    proprietary: proprietaryCode !== undefined ? compact({ code: proprietaryCode, issuer: text(node, 'Prtry', 'Issr') }) : undefined,
  })
  return Object.keys(result).length > 0 ? result : undefined
}

function transactionDetailsOf(node: unknown, path: string): CamtTransactionDetails {
  const parties = child(node, 'RltdPties')
  const agents = child(node, 'RltdAgts')
  const remittance = all(node, 'RmtInf')
  const returnCode = text(node, 'RtrInf', 'Rsn', 'Cd') ?? text(node, 'RtrInf', 'Rsn', 'Prtry')
  const endToEndId = text(node, 'Refs', 'EndToEndId')
  return {
    path,
    ...compact({
      amount: amountOf(child(node, 'Amt')) ?? amountOf(child(node, 'AmtDtls', 'TxAmt', 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      // NOTPROVIDED is the scheme's placeholder for "the debtor gave none".
      endToEndId: endToEndId === 'NOTPROVIDED' ? undefined : endToEndId,
      accountServicerReference: text(node, 'Refs', 'AcctSvcrRef'),
      mandateId: text(node, 'Refs', 'MndtId'),
      debtor: partyOf(child(parties, 'Dbtr'), child(parties, 'DbtrAcct'), child(agents, 'DbtrAgt')),
      creditor: partyOf(child(parties, 'Cdtr'), child(parties, 'CdtrAcct'), child(agents, 'CdtrAgt')),
      additionalInfo: text(node, 'AddtlTxInf'),
      returnReason: returnCode !== undefined ? compact({ code: returnCode, additionalInfo: text(node, 'RtrInf', 'AddtlInf') }) : undefined,
    }),
    unstructured: remittance.flatMap((info) => all(info, 'Ustrd').map((line) => text(line)).filter((line): line is string => line !== undefined)),
    structuredReferences: remittance.flatMap((info) =>
      all(info, 'Strd')
        .map((structured) => text(structured, 'CdtrRefInf', 'Ref'))
        .filter((ref): ref is string => ref !== undefined),
    ),
  }
}

function statusOf(node: unknown): string | undefined {
  const status = child(node, 'Sts')
  return isNode(status) ? (text(status, 'Cd') ?? text(status, 'Prtry') ?? text(status)) : text(status)
}

function entryOf(node: unknown, path: string, offset: number): CamtEntry {
  const entryDetails = all(node, 'NtryDtls')
  const details = entryDetails.flatMap((group, groupIndex) => {
    const groupPath = entryDetails.length > 1 ? `${path}.NtryDtls[${groupIndex + 1}]` : `${path}.NtryDtls`
    return all(group, 'TxDtls').map((transaction, index) => transactionDetailsOf(transaction, `${groupPath}.TxDtls[${index + 1}]`))
  })
  const reversal = text(node, 'RvslInd')
  return {
    path,
    offset,
    ...compact({
      entryReference: text(node, 'NtryRef'),
      accountServicerReference: text(node, 'AcctSvcrRef'),
      amount: amountOf(child(node, 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      status: statusOf(node),
      bookingDate: dateOf(child(node, 'BookgDt')),
      valueDate: dateOf(child(node, 'ValDt')),
      bankTransactionCode: bankTransactionCodeOf(child(node, 'BkTxCd')),
      additionalInfo: all(node, 'AddtlNtryInf').map((info) => text(info)).filter(Boolean).join(' ') || undefined,
      batchPaymentInformationId: entryDetails.map((group) => text(group, 'Btch', 'PmtInfId')).find(Boolean),
    }),
    reversal: reversal === 'true' || reversal === '1',
    details,
  }
}

function balanceOf(node: unknown, path: string): CamtBalance {
  return {
    path,
    offset: offsetOf(node),
    ...compact({
      code: text(node, 'Tp', 'CdOrPrtry', 'Cd') ?? text(node, 'Tp', 'CdOrPrtry', 'Prtry'),
      amount: amountOf(child(node, 'Amt')),
      creditDebit: text(node, 'CdtDbtInd'),
      date: dateOf(child(node, 'Dt')),
    }),
  }
}

/** The raw text of each Ntry of a statement and its offset in the document (found from the previous one on). */
function rawEntries(node: unknown, xml: string, cursor: { at: number }): Array<{ raw: string; offset: number }> {
  return all(node, 'Ntry').map((entry) => {
    const raw = typeof entry === 'string' ? entry : (text(entry) ?? '')
    const found = xml.indexOf(raw, cursor.at)
    const offset = found === -1 ? cursor.at : found
    cursor.at = offset + raw.length
    return { raw, offset }
  })
}

function entriesOf(raws: Array<{ raw: string; offset: number }>, path: string): CamtEntry[] {
  const entries: CamtEntry[] = []
  for (let start = 0; start < raws.length; start += ENTRY_BATCH) {
    const batch = raws.slice(start, start + ENTRY_BATCH)
    const parsed = entryParser.parse(`<Entries><Ntry>${batch.map((entry) => entry.raw).join('</Ntry><Ntry>')}</Ntry></Entries>`) as Node
    all(parsed.Entries, 'Ntry').forEach((entry, index) => {
      const position = start + index
      entries.push(entryOf(entry, `${path}.Ntry[${position + 1}]`, raws[position]!.offset))
    })
  }
  return entries
}

function statementOf(node: unknown, path: string, xml: string, cursor: { at: number }): CamtStatement {
  const offset = offsetOf(node)
  if (offset !== undefined) cursor.at = Math.max(cursor.at, offset)
  return {
    path,
    offset,
    ...compact({ id: text(node, 'Id'), electronicSequenceNumber: text(node, 'ElctrncSeqNb') }),
    account: compact({ iban: text(node, 'Acct', 'Id', 'IBAN'), otherId: text(node, 'Acct', 'Id', 'Othr', 'Id'), currency: text(node, 'Acct', 'Ccy') }),
    balances: all(node, 'Bal').map((balance, index) => balanceOf(balance, `${path}.Bal[${index + 1}]`)),
    entries: entriesOf(rawEntries(node, xml, cursor), path),
  }
}

function reject(field: string, error: string, message = error): ApiError {
  return new ApiError('invalid_request', message, [{ code: 'unsupported_message', field, error }])
}

function namespacesOf(...nodes: unknown[]): string[] {
  return nodes.flatMap((node) =>
    isNode(node) ? Object.entries(node).filter(([key, value]) => /^@xmlns(:|$)/.test(key) && typeof value === 'string').map(([, value]) => value as string) : [],
  )
}

/** Line and column of a character offset; the index of line starts is built on the first call (errors only). */
function lineIndex(xml: string): CamtMessage['lineOf'] {
  let lineStarts: number[] | undefined
  return (offset) => {
    if (offset === undefined) return undefined
    if (!lineStarts) {
      lineStarts = [0]
      for (let index = xml.indexOf('\n'); index !== -1; index = xml.indexOf('\n', index + 1)) lineStarts.push(index + 1)
    }
    let low = 0
    let high = lineStarts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (lineStarts[middle]! <= offset) low = middle
      else high = middle - 1
    }
    return { line: low + 1, column: offset - lineStarts[low]! + 1 }
  }
}

/**
 * Parses a camt.053, camt.052 or camt.054 document (optionally inside an envelope next to its AppHdr).
 * @throws ApiError invalid_request (400): malformed XML (with line and column), or a document that is no
 * supported message (naming the root element and namespace).
 */
export function parseCamt(input: string): CamtMessage {
  const xml = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input
  const valid = XMLValidator.validate(xml)
  if (valid !== true) {
    const { msg, line, col } = valid.err
    const where = col !== undefined ? `line ${line}, column ${col}` : `line ${line}`
    throw new ApiError('invalid_request', `The body is not well-formed XML: ${msg} (${where})`, [
      { code: 'malformed_xml', field: where, error: msg },
    ])
  }
  const parsed = documentParser.parse(xml) as Node
  const roots = Object.keys(parsed).filter((key) => !key.startsWith('?'))
  const rootName = roots[0] ?? ''
  const root = parsed[rootName]
  const document = rootName === 'Document' ? root : child(root, 'Document')
  if (!isNode(document)) {
    throw reject(rootName, 'is no ISO 20022 Document', `The root element <${rootName}> is not an ISO 20022 Document; send a camt.053, camt.052 or camt.054 message`)
  }
  const namespaces = namespacesOf(root, document).filter((namespace) => NAMESPACE.test(namespace) && !namespace.includes(':head.'))
  const namespace = namespaces[namespaces.length - 1]
  const match = namespace !== undefined ? NAMESPACE.exec(namespace) : null
  const kind = match?.[1]
  if (!match || !(kind! in MESSAGE_KINDS)) {
    const content = Object.keys(document).find((key) => !key.startsWith('@')) ?? ''
    const name = namespace ?? 'no ISO 20022 namespace'
    throw reject('Document', `${name} (Document/${content}) is not a supported message`, `Unsupported message: ${name} (Document/${content}); Kassa imports camt.053, camt.052 and camt.054`)
  }
  const version = match[2]!
  if (!(SUPPORTED_VERSIONS as readonly string[]).includes(version)) {
    throw reject('Document', `${namespace} is not a supported version`, `Unsupported message version ${kind}.${version}; Kassa imports versions ${SUPPORTED_VERSIONS[0]} to ${SUPPORTED_VERSIONS.at(-1)}`)
  }
  const shape = MESSAGE_KINDS[kind as CamtKind]
  const body = child(document, shape.root)
  if (!isNode(body)) {
    const content = Object.keys(document).find((key) => !key.startsWith('@')) ?? 'nothing'
    throw reject(`Document.${content}`, `a ${kind} Document holds ${shape.root}`, `A ${kind} Document holds ${shape.root}, not ${content}`)
  }
  const cursor = { at: 0 }
  return {
    kind: kind as CamtKind,
    version,
    namespace: namespace!,
    ...compact({ messageId: text(body, 'GrpHdr', 'MsgId') }),
    statements: all(body, shape.item).map((statement, index) => statementOf(statement, `${shape.item}[${index + 1}]`, xml, cursor)),
    lineOf: lineIndex(xml),
  }
}
