import type { Command } from 'commander'
import { registerCounterpartyCommands } from './counterparties.js'
import { registerCreditTransferCommands } from './credit-transfers.js'
import { registerTransactionCommands } from './transactions.js'
import { registerWebhookCommands } from './webhooks.js'

/**
 * The day-to-day commands, which talk to a running Kassa server over the SDK (@kassa/client), unlike
 * the management commands beside them, which open the database directly.
 */
export function registerApiCommands(program: Command): void {
  registerCounterpartyCommands(program)
  registerCreditTransferCommands(program)
  registerTransactionCommands(program)
  registerWebhookCommands(program)
}
