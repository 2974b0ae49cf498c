import fc from 'fast-check'

/**
 * Text sent as it is: JSON that JSON.stringify cannot or should not make (numbers beyond a double such
 * as `1e400`, `-0`, nesting 100,000 deep, arrays of 100,000 items, keys such as `__proto__`), or an XML
 * document. It stays a short label in fast-check's counterexamples (fc.toStringMethod) and becomes its
 * text only when the request is sent.
 */
export class RawText {
  constructor(
    readonly label: string,
    private readonly make: () => string,
  ) {}

  text(): string {
    return this.make()
  }

  [fc.toStringMethod](): string {
    return `raw(${this.label})`
  }
}

/** A string of `length` copies of `unit`, printed as such rather than in full. */
export class Repeated {
  constructor(
    readonly unit: string,
    readonly length: number,
  ) {}

  value(): string {
    return this.unit.repeat(this.length)
  }

  [fc.toStringMethod](): string {
    return `${JSON.stringify(this.unit)}×${this.length}`
  }
}

export function raw(text: string): RawText {
  return new RawText(text.length > 80 ? `${text.slice(0, 77)}...` : text, () => text)
}

/** `[[[…1…]]]` or `{"a":{"a":…}}` nested `depth` levels. */
export function nested(depth: number, kind: 'array' | 'object'): RawText {
  return new RawText(`${kind} nested ${depth} deep`, () =>
    kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  )
}

/** An array of `count` copies of `item`: a huge list of (usually invalid) entries. */
export function manyItems(count: number, item: unknown): RawText {
  return new RawText(`${count} × ${JSON.stringify(item)}`, () => `[${new Array<string>(count).fill(JSON.stringify(item)).join(',')}]`)
}

/** An object of `count` fields no schema knows. */
export function manyFields(count: number): RawText {
  return new RawText(`an object of ${count} unknown fields`, () => `{${Array.from({ length: count }, (_, n) => `"field${n}":1`).join(',')}}`)
}

/** An object whose own enumerable key is `key`, even `__proto__` (an object literal would set the prototype). */
export function objectWith(base: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const copy = { ...base }
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true })
  return copy
}

/** The JSON text of a generated value; RawText and Repeated parts are written as they are. */
export function jsonText(value: unknown): string {
  if (value instanceof RawText) return value.text()
  if (value instanceof Repeated) return JSON.stringify(value.value())
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : jsonText(item))).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const members = Object.entries(value).filter(([, member]) => member !== undefined)
    return `{${members.map(([key, member]) => `${JSON.stringify(key)}:${jsonText(member)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/**
 * A value as a form body (application/x-www-form-urlencoded: the OAuth2 token endpoint's), so that its
 * parameters are read rather than refused whole: an object's members as parameters, each a string as it is
 * or else its JSON text. Anything but an object goes as its JSON text, which the form reads as nonsense.
 */
export function formText(value: unknown): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value) || value instanceof RawText || value instanceof Repeated) return jsonText(value)
  const parameters = new URLSearchParams()
  for (const [key, member] of Object.entries(value)) {
    if (member !== undefined) parameters.append(key, typeof member === 'string' ? member : jsonText(member))
  }
  return parameters.toString()
}
