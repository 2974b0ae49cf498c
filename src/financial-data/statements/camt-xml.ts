import { XMLParser } from 'fast-xml-parser'

/** Reading the trees fast-xml-parser builds: elements that may repeat, nested children, text, offsets. */

export type Node = Record<string, unknown>
/** Where fast-xml-parser keeps an element's position when captureMetaData is on. */
const META = XMLParser.getMetaDataSymbol() as unknown as string

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A repeated element as a list, whether it occurred once or many times. */
export function all(node: unknown, name: string): unknown[] {
  if (!isNode(node)) return []
  const value = node[name]
  if (value === undefined) return []
  return Array.isArray(value) ? value : [value]
}

export function child(node: unknown, ...names: string[]): unknown {
  let current = node
  for (const name of names) {
    if (!isNode(current)) return undefined
    const value = current[name]
    current = Array.isArray(value) ? value[0] : value
  }
  return current
}

/** The text of an element (also of one with attributes); undefined when absent or empty. */
export function text(node: unknown, ...names: string[]): string | undefined {
  const value = child(node, ...names)
  const raw = typeof value === 'string' ? value : isNode(value) && typeof value['#text'] === 'string' ? value['#text'] : undefined
  return raw === undefined || raw === '' ? undefined : raw
}

export function offsetOf(node: unknown): number | undefined {
  return isNode(node) ? (node[META] as { startIndex?: number } | undefined)?.startIndex : undefined
}
