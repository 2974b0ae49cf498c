/** Which state of its setup an organization is in (db/setup-reads.ts, migration 0025). Column conventions: see ../schema.ts. */

export interface SetupStateTokensTable {
  organization_id: string
  /** Random, new with every change to a row a setup read sees; no row: unchanged since the migration. */
  token: string
}
