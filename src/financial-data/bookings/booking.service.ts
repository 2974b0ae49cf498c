import type { Executor } from '../../db/database.js'
import type { AccountsTable, TransactionsTable } from '../../db/schema.js'
import { recordFirstEvents } from '../../events/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { balanceRepo } from '../balances/balance.repo.js'
import { endBookedPending } from './pending-entries.js'
import type { BalancesTable } from '../../db/schema.js'
import { transactionRepo, toTransaction } from '../transactions/transaction.repo.js'
import type { BankTransactionCode, DateSource, ReturnReason, Transaction, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { TRANSACTIONS } from '../transactions/transaction.service.js'

/**
 * How banks report to Kassa. Every bank connector — the sandbox bank, an imported camt.053
 * statement — hands its booked entries and balances to these two functions (and the entries it shows
 * pending to pending-entries.ts), inside the caller's transaction, so what a bank reported is stored
 * once whichever way it arrived.
 */

export interface BookedEntry {
  /** The bank's unique reference of the entry on this account; a repeated one is ignored. */
  entryReference: string
  /** Signed minor units of the account's currency: negative is an outflow. */
  amount: number
  date: string
  valueDate: string
  /** Where `date` came from when the bank reported no booking date. */
  dateSource?: DateSource
  description: string
  reference?: string
  endToEndId?: string
  mandateReference?: string
  counterparty?: TransactionCounterparty
  bankTransactionCode?: BankTransactionCode
  returnReason?: ReturnReason
}

/**
 * Books the entries the account does not have yet; returns the transactions created, with their CREATED events
 * written, and the pending transactions they book ended (pending-entries.ts).
 */
export async function bookEntries(
  trx: Executor,
  account: Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>,
  entries: BookedEntry[],
  originator: string,
): Promise<Transaction[]> {
  const now = nowIso()
  const rows: TransactionsTable[] = entries.map((entry) => ({
    id: newId(),
    organization_id: account.organization_id,
    account_id: account.id,
    amount: entry.amount,
    currency: account.currency,
    date: entry.date,
    value_date: entry.valueDate,
    date_source: entry.dateSource ?? null,
    description: entry.description,
    reference: entry.reference ?? null,
    end_to_end_id: entry.endToEndId ?? null,
    mandate_reference: entry.mandateReference ?? null,
    counterparty: entry.counterparty ? JSON.stringify(entry.counterparty) : null,
    bank_transaction_code: entry.bankTransactionCode ? JSON.stringify(entry.bankTransactionCode) : null,
    reconciliation_status: 'NOT_RECONCILED',
    attached_transactables: '[]',
    returned: entry.returnReason ? 1 : 0,
    return_reason: entry.returnReason ? JSON.stringify(entry.returnReason) : null,
    entry_reference: entry.entryReference,
    metadata: '{}',
    version: 1,
    created: now,
    updated: now,
  }))
  const inserted = await transactionRepo.insertNew(trx, rows)
  const transactions = inserted.map(toTransaction)
  await recordFirstEvents(
    trx,
    account.organization_id,
    TRANSACTIONS,
    transactions.map((transaction) => ({ entityId: transaction.id, type: 'CREATED', name: 'BOOKED', originator, entity: transaction })),
  )
  await endBookedPending(trx, account, transactions, originator)
  return transactions
}

export interface ReportedBalance {
  type: BalancesTable['type']
  reportedType: BalancesTable['reported_type']
  amount: number
  localDate: string
}

/** Stores a reported balance; a later report of the same account, type, reported type and day replaces it. */
export async function reportBalance(
  trx: Executor,
  account: Pick<AccountsTable, 'id' | 'organization_id' | 'currency'>,
  balance: ReportedBalance,
): Promise<void> {
  await balanceRepo.upsert(trx, {
    id: newId(),
    organization_id: account.organization_id,
    account_id: account.id,
    type: balance.type,
    reported_type: balance.reportedType,
    amount: balance.amount,
    currency: account.currency,
    local_date: balance.localDate,
    timestamp: nowIso(),
    version: 1,
  })
}
