/**
 * The nesting limit of JSON bodies, JSON Patch values included (issue 9: values nested 8,000 deep
 * overflowed the stack of every recursive walk after the parse). The deepest body the API defines
 * nests six levels; 32 leaves room for any metadata a client may send.
 */
export const MAX_JSON_DEPTH = 32

const OPEN_OBJECT = 0x7b
const OPEN_ARRAY = 0x5b
const CLOSE_OBJECT = 0x7d
const CLOSE_ARRAY = 0x5d
const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether the JSON text nests objects and arrays deeper than `limit`. One pass over the text before it
 * is parsed, without recursion, skipping brackets inside strings; malformed text is left to the parser.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0
  let inString = false
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index)
    if (inString) {
      if (char === BACKSLASH) index += 1
      else if (char === QUOTE) inString = false
    } else if (char === QUOTE) {
      inString = true
    } else if (char === OPEN_OBJECT || char === OPEN_ARRAY) {
      depth += 1
      if (depth > limit) return true
    } else if (char === CLOSE_OBJECT || char === CLOSE_ARRAY) {
      depth -= 1
    }
  }
  return false
}
