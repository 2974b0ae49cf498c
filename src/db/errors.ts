/** True when a driver error is a unique-constraint violation, on either backend. */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false
  const code = (error as { code?: unknown }).code
  // PostgreSQL: SQLSTATE 23505; better-sqlite3: SQLITE_CONSTRAINT_UNIQUE / _PRIMARYKEY.
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** The table whose unique constraint was violated, when the driver says. */
export function violatedTable(error: unknown): string | undefined {
  const { table, message } = error as { table?: string; message?: string }
  if (table) return table
  return /UNIQUE constraint failed: (\w+)\./.exec(message ?? '')?.[1]
}
