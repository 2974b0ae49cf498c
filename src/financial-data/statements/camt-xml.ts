/**
 * The trees xml-reader.ts builds of the elements it captures, and how camt-extract.ts reads them: an
 * element with neither attributes nor children is its trimmed text; any other is a Node of its
 * children by local name (an array when one repeats), its attributes as "@Name" and its text as "#text".
 */

export type Node = Record<string, unknown>

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
