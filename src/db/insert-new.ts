/** Rows per multi-row INSERT: about 20 parameters a row stay below SQLite's 32,766 and PostgreSQL's 65,535 bind parameters. */
const INSERT_CHUNK = 1000

/**
 * Inserts the rows that are new — `insertChunk` inserts one multi-row INSERT's rows, skipping conflicts, and
 * returns the ids it inserted — and returns those rows, in the order given. For the entries of bank reports,
 * which may repeat what an earlier report said (transactions, pending transactions: one per entry reference).
 */
export async function insertNewRows<Row extends { id: string }>(rows: Row[], insertChunk: (chunk: Row[]) => Promise<Array<{ id: string }>>): Promise<Row[]> {
  const inserted = new Set<string>()
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    for (const { id } of await insertChunk(rows.slice(start, start + INSERT_CHUNK))) inserted.add(id)
  }
  return rows.filter((row) => inserted.has(row.id))
}
