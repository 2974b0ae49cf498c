import { SaxesParser } from 'saxes'

/**
 * Generated files read back with a real XML parser (saxes), so tests assert on what a bank's parser sees —
 * entities decoded, elements nested — rather than on the text Kassa wrote.
 */

export interface XmlNode {
  name: string
  attributes: Record<string, string>
  children: XmlNode[]
  /** The element's own text, exactly as decoded (not trimmed). */
  text: string
}

export function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: false })
  const document: XmlNode = { name: '#document', attributes: {}, children: [], text: '' }
  const open = [document]
  parser.on('opentag', (tag) => {
    const node: XmlNode = { name: tag.name, attributes: tag.attributes as Record<string, string>, children: [], text: '' }
    open.at(-1)!.children.push(node)
    open.push(node)
  })
  parser.on('text', (text) => {
    open.at(-1)!.text += text
  })
  parser.on('closetag', () => open.pop())
  parser.on('error', (error) => {
    throw error
  })
  parser.write(xml).close()
  return document.children[0]!
}

/** The elements at a path of child names ("PmtInf/CdtTrfTxInf/PmtId") below `node`. */
export function select(node: XmlNode, path: string): XmlNode[] {
  return path.split('/').reduce<XmlNode[]>((nodes, name) => nodes.flatMap((parent) => parent.children.filter((child) => child.name === name)), [node])
}

/** The text of the one element at `path`; undefined when there is none. @throws when there are several. */
export function textAt(node: XmlNode, path: string): string | undefined {
  const found = select(node, path)
  if (found.length > 1) throw new Error(`${path} occurs ${found.length} times`)
  return found[0]?.text
}

/** Names of an element's children, in document order. */
export function childNames(node: XmlNode): string[] {
  return node.children.map((child) => child.name)
}
