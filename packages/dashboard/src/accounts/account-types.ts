import type { ListItem, operations } from '@kassa/client'

/**
 * The financial-data resources the Accounts pages show, as the generated client types them (list items of
 * their list paths), so no schema is written a second time.
 */
export type Account = ListItem<'/financial-data/v2/accounts'>
export type Balance = ListItem<'/financial-data/v2/balances'>
export type Transaction = ListItem<'/financial-data/v2/transactions'>
export type StatementImport = operations['importStatement']['responses'][201]['content']['application/json']
export type ImportedStatement = StatementImport['statements'][number]
