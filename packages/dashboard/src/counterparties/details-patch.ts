import type { Counterparty, CounterpartyPatch } from './types'

/** A metadata entry as the form edits it: rows keep their order, and a key may be half typed. */
export interface MetadataRow {
  key: string
  value: string
}

/** RFC 6901 §3: "~" and "/" inside a key are escaped in a JSON Pointer. */
const pointer = (key: string) => `/metadata/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`

/**
 * The JSON Patch (RFC 6902) from the counterparty as read to the alias and metadata as edited, within
 * what the API allows (COUNTERPARTY_PATCH_RULES: /alias added, replaced or removed; /metadata/{key} one
 * by one). Only what changed is sent, so an unchanged field never overwrites someone else's edit. Rows
 * with an empty key are ignored; an empty alias removes it.
 */
export function detailsPatch(before: Pick<Counterparty, 'alias' | 'metadata'>, alias: string, rows: MetadataRow[]): CounterpartyPatch {
  const operations: CounterpartyPatch = []
  const newAlias = alias.trim()
  if (!newAlias && before.alias !== undefined) operations.push({ op: 'remove', path: '/alias' })
  else if (newAlias && newAlias !== before.alias) operations.push({ op: before.alias === undefined ? 'add' : 'replace', path: '/alias', value: newAlias })

  const after = new Map(rows.filter((row) => row.key.trim()).map((row) => [row.key.trim(), row.value]))
  for (const key of Object.keys(before.metadata)) {
    if (!after.has(key)) operations.push({ op: 'remove', path: pointer(key) })
  }
  for (const [key, value] of after) {
    if (before.metadata[key] !== value) operations.push({ op: key in before.metadata ? 'replace' : 'add', path: pointer(key), value })
  }
  return operations
}
