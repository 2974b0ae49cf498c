import fc from 'fast-check'
import { generateCamt053 } from '../fixtures/camt/generate-camt053.js'
import { camtFixture } from '../financial-data/statements-helpers.js'
import { RawText } from './json-text.js'

/**
 * Bodies for the statement upload: valid camt.053 documents for the organization's own accounts (they
 * import), the same documents broken in the ways XML breaks — cut short, tags dropped, a DOCTYPE with
 * internal, external or parameter entities (XXE, billion laughs), nesting 100,000 deep, huge text and
 * attributes, odd encodings and character references — and things that are not XML at all.
 */

export interface StatementAccounts {
  /** IBANs of the organization's own accounts (the sandbox's Operating, Payroll and Nordic). */
  operating: string
  payroll: string
  nordic: string
  today: string
}

const DOCTYPES = [
  '<!DOCTYPE Document>',
  '<!DOCTYPE Document [<!ENTITY name "Injected">]>',
  '<!DOCTYPE Document SYSTEM "file:///etc/passwd">',
  '<!DOCTYPE Document [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>',
  '<!DOCTYPE Document [<!ENTITY % remote SYSTEM "http://127.0.0.1:1/evil.dtd"> %remote;]>',
  '<!DOCTYPE Document PUBLIC "-//Evil//DTD//EN" "http://169.254.169.254/latest/meta-data/">',
  `<!DOCTYPE Document [<!ENTITY a0 "lol">${Array.from({ length: 9 }, (_, n) => `<!ENTITY a${n + 1} "${`&a${n};`.repeat(10)}">`).join('')}]>`,
]

/** Where a document is broken: each takes the text and returns the broken text. */
type Breakage = { label: string; apply: (xml: string) => string }

function insertAfterDeclaration(xml: string, text: string): string {
  const end = xml.startsWith('<?xml') ? xml.indexOf('?>') + 2 : 0
  return `${xml.slice(0, end)}${text}${xml.slice(end)}`
}

function insertInEntry(xml: string, text: string): string {
  const at = xml.indexOf('<AcctSvcrRef>')
  return at < 0 ? `${xml}${text}` : `${xml.slice(0, at)}${text}${xml.slice(at)}`
}

const breakage: fc.Arbitrary<Breakage> = fc.oneof(
  fc.double({ min: 0, max: 1, noNaN: true }).map((fraction) => ({ label: `cut at ${fraction.toFixed(3)}`, apply: (xml: string) => xml.slice(0, Math.floor(xml.length * fraction)) })),
  fc.constantFrom(...DOCTYPES).map((doctype) => ({ label: doctype.slice(0, 60), apply: (xml: string) => insertAfterDeclaration(xml, doctype).replace('<AcctSvcrRef>', '<AcctSvcrRef>&a9;&xxe;&name;') })),
  fc.constantFrom(...DOCTYPES).map((doctype) => ({ label: `${doctype.slice(0, 60)} (unused)`, apply: (xml: string) => insertAfterDeclaration(xml, doctype) })),
  fc.constantFrom(100, 10_000, 100_000).map((depth) => ({ label: `nested ${depth} deep`, apply: (xml: string) => insertInEntry(xml, `${'<X>'.repeat(depth)}${'</X>'.repeat(depth)}`) })),
  fc.constantFrom(100_000, 2_000_000).map((length) => ({ label: `text of ${length} chars`, apply: (xml: string) => insertInEntry(xml, `<AddtlNtryInf>${'x'.repeat(length)}</AddtlNtryInf>`) })),
  fc.constantFrom(1_000, 50_000).map((count) => ({ label: `${count} attributes`, apply: (xml: string) => xml.replace('<Ntry>', `<Ntry ${Array.from({ length: count }, (_, n) => `a${n}="1"`).join(' ')}>`) })),
  fc.constantFrom(
    { label: 'namespace of an unknown version', apply: (xml: string) => xml.replace(/camt\.053\.001\.0\d/, 'camt.053.001.99') },
    { label: 'no namespace', apply: (xml: string) => xml.replace(/ xmlns="[^"]*"/, '') },
    { label: 'amount not a number', apply: (xml: string) => xml.replace(/(<Amt Ccy="\w+">)[^<]*/, '$1NaN') },
    { label: 'negative amount', apply: (xml: string) => xml.replace(/(<Amt Ccy="\w+">)/, '$1-') },
    { label: 'amount 1e400', apply: (xml: string) => xml.replace(/(<Amt Ccy="\w+">)[^<]*/, '$11e400') },
    { label: 'huge amount', apply: (xml: string) => xml.replace(/(<Amt Ccy="\w+">)[^<]*/, `$1${'9'.repeat(400)}.99`) },
    { label: 'currency lower-case', apply: (xml: string) => xml.replace(/Ccy="(\w+)"/g, (_, code: string) => `Ccy="${code.toLowerCase()}"`) },
    { label: 'first closing tag dropped', apply: (xml: string) => xml.replace(/<\/\w+>/, '') },
    { label: 'mismatched tag', apply: (xml: string) => xml.replace('</Ntry>', '</Ntri>') },
    { label: 'duplicate attribute', apply: (xml: string) => xml.replace(/<Amt Ccy="(\w+)"/, '<Amt Ccy="$1" Ccy="$1"') },
    { label: 'NUL character', apply: (xml: string) => insertInEntry(xml, '<AddtlNtryInf>a\u0000b</AddtlNtryInf>') },
    { label: 'bad character references', apply: (xml: string) => insertInEntry(xml, '<AddtlNtryInf>&#0;&#xD800;&#x110000;&unknown;</AddtlNtryInf>') },
    { label: 'CDATA, comment and processing instruction', apply: (xml: string) => insertInEntry(xml, '<![CDATA[<Ntry>]]><!-- c --><?pi x?>') },
    { label: 'declared UTF-16', apply: (xml: string) => xml.replace('encoding="UTF-8"', 'encoding="UTF-16"') },
    { label: 'declared EBCDIC', apply: (xml: string) => xml.replace('encoding="UTF-8"', 'encoding="EBCDIC-US"') },
    { label: 'byte order mark', apply: (xml: string) => `\ufeff${xml}` },
    { label: 'two root elements', apply: (xml: string) => `${xml}<Document/>` },
    { label: 'entries duplicated', apply: (xml: string) => xml.replace(/(<Ntry>[\s\S]*?<\/Ntry>)/, '$1$1') },
    { label: 'booking date invalid', apply: (xml: string) => xml.replace(/<BookgDt><Dt>[^<]*/, '<BookgDt><Dt>2026-02-30') },
  ),
)

const notXml = fc.constantFrom('', ' ', '{"Document":{}}', 'not xml', '<', '<?xml version="1.0"?>', '<Document>', '<Document/>', '\u0000\u0001\u0002')

function validStatement(accounts: StatementAccounts): fc.Arbitrary<RawText> {
  return fc.oneof(
    fc
      .record({
        account: fc.constantFrom('operating' as const, 'payroll' as const),
        entries: fc.integer({ min: 1, max: 4 }),
        version: fc.constantFrom('001.02' as const, '001.08' as const),
        run: fc.nat({ max: 999_999 }),
      })
      .map(({ account, entries, version, run }) => {
        const options = { iban: accounts[account], entries, version, statementId: `FUZZ-${run}`, referencePrefix: `FZ${run}-`, bookingDate: accounts.today }
        return new RawText(`camt.053.${version} for ${account}, ${entries} entries, run ${run}`, () => generateCamt053(options))
      }),
    fc.constantFrom('camt053-001-02-two-accounts.xml', 'camt053-001-08-nordic.xml').map(
      (name) => new RawText(name, () => camtFixture(name, { operating: accounts.operating, payroll: accounts.payroll, nordic: accounts.nordic })),
    ),
  )
}

/** A statement upload body: valid, broken, or not XML. */
export function statementBody(accounts: StatementAccounts): fc.Arbitrary<RawText> {
  return fc.oneof(
    { arbitrary: validStatement(accounts), weight: 2 },
    {
      arbitrary: fc.tuple(validStatement(accounts), fc.array(breakage, { minLength: 1, maxLength: 2 })).map(
        ([document, breakages]) => new RawText(`${document.label}, ${breakages.map((b) => b.label).join(', ')}`, () => breakages.reduce((xml, b) => b.apply(xml), document.text())),
      ),
      weight: 6,
    },
    notXml.map((text) => new RawText(JSON.stringify(text), () => text)),
  )
}

export const statementContentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { arbitrary: fc.constantFrom('application/xml', 'text/xml'), weight: 8 },
  fc.constantFrom('application/xml; charset=utf-8', 'application/xml; charset=iso-8859-1', 'APPLICATION/XML', 'application/camt+xml', 'application/json', 'text/plain', undefined),
)
