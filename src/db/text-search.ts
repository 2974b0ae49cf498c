import { sql, type RawBuilder, type SqlBool } from 'kysely'

/**
 * Case-insensitive "contains" on both backends: lower() on both sides, and an explicit ESCAPE
 * (SQLite has no default), so `%` and `_` in the searched text match themselves.
 */
export function containsText(column: string, text: string): RawBuilder<SqlBool> {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${pattern} escape '\\'`
}
