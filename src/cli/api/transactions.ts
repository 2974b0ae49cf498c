import type { ListItem } from '@kassa/client'
import type { Command } from 'commander'
import { CONNECTION_HELP } from './api-command.js'
import { listCommand } from './list-command.js'
import { money, type Column } from './output.js'

type Transaction = ListItem<'/financial-data/v2/transactions'>

const COLUMNS: ReadonlyArray<Column<Transaction>> = [
  { header: 'ID', value: (transaction) => transaction.id },
  { header: 'DATE', value: (transaction) => transaction.date },
  { header: 'AMOUNT', value: (transaction) => money(transaction.amount), align: 'right' },
  { header: 'COUNTERPARTY', value: (transaction) => transaction.counterparty?.name },
  { header: 'DESCRIPTION', value: (transaction) => transaction.description },
  { header: 'RECONCILIATION', value: (transaction) => transaction.reconciliationStatus },
]

/** `kassa transactions list` over /financial-data/v2/transactions. */
export function registerTransactionCommands(program: Command): void {
  const transactions = program
    .command('transactions')
    .description('Booked transactions of the own accounts (financial-data/v2), on a running server')
    .addHelpText('after', CONNECTION_HELP)

  listCommand(transactions, {
    nameAndArguments: 'list',
    description: 'List transactions, newest first',
    filters: [
      { flags: '--account-id <id>', parameter: 'accountId', description: 'booked on this own account' },
      { flags: '--currency <code>', parameter: 'currency', description: 'in this currency' },
      { flags: '--reconciliation-status <status>', parameter: 'reconciliationStatus', description: 'NOT_RECONCILED, PARTIALLY_RECONCILED or RECONCILED' },
      { flags: '--date <yyyy-mm-dd>', parameter: 'date', description: 'booked on' },
      { flags: '--date-gte <yyyy-mm-dd>', parameter: 'date[gte]', description: 'booked on or after' },
      { flags: '--date-lte <yyyy-mm-dd>', parameter: 'date[lte]', description: 'booked on or before' },
      { flags: '--amount-gte <minor-units>', parameter: 'amount[gte]', description: 'at least, in minor units, signed (-5000 is -50.00 EUR)' },
      { flags: '--amount-lte <minor-units>', parameter: 'amount[lte]', description: 'at most, in minor units, signed' },
    ],
    columns: COLUMNS,
    none: 'No transactions.',
    path: '/financial-data/v2/transactions',
  })
}
