/**
 * The little XML Kassa's ISO 20022 writers need (pain.001/pain.008 files out, camt.053 statements out):
 * elements holding text or other elements, attributes, and a serializer with two-space indentation.
 * Written here rather than with a builder library (xmlbuilder2, fast-xml-parser's builder): a message is
 * a fixed tree in schema order, every value is checked or cut to the schema before it arrives
 * (bank-file.rules.ts, camt053-text.ts), and the whole of escaping is the one function below, read at a glance.
 */

export interface XmlElement {
  name: string
  attributes: Readonly<Record<string, string>>
  /** Text, or child elements in the order the schema's sequence wants them. */
  content: string | XmlElement[]
}

/** `undefined` children are left out: optional elements read as `value === undefined ? undefined : element(…)`. */
export function element(name: string, content: string | (XmlElement | undefined)[], attributes: Record<string, string> = {}): XmlElement {
  return { name, attributes, content: typeof content === 'string' ? content : content.filter((child) => child !== undefined) }
}

/**
 * XML 1.0 §2.4 and §3.1: `&` and `<` must be escaped in text, `>` is (so "]]>" never appears), and `"` is
 * in attribute values, which are written between double quotes. Every other character is written as
 * itself in UTF-8; characters XML cannot carry at all were refused or removed before (bank-file.rules.ts, camt053-text.ts).
 */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"]/g, (char) => ENTITIES[char]!)
}

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/** The document with its XML declaration (UTF-8, as ISO 20022 XML messages are exchanged), ending in a newline. */
export function serializeDocument(root: XmlElement): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>']
  writeElement(root, '', lines)
  return `${lines.join('\n')}\n`
}

function writeElement(node: XmlElement, indent: string, lines: string[]): void {
  const attributes = Object.entries(node.attributes)
    .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
    .join('')
  if (typeof node.content === 'string') {
    lines.push(`${indent}<${node.name}${attributes}>${escapeXml(node.content)}</${node.name}>`)
    return
  }
  lines.push(`${indent}<${node.name}${attributes}>`)
  for (const child of node.content) writeElement(child, `${indent}  `, lines)
  lines.push(`${indent}</${node.name}>`)
}
