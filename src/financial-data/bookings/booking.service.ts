import type { Executor } from '../../db/database.js'
import type { AccountsTable, EventsTable, TransactionsTable } from '../../db/schema.js'
import type { Event } from '../../events/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { deliveryRepo, type NewDelivery } from '../../webhooks/delivery.repo.js'
import { deliveryOf, matchingFilter } from '../../webhooks/outbox.js'
import { webhookRepo } from '../../webhooks/webhook.repo.js'
import type { WebhookFilter } from '../../webhooks/webhook.schemas.js'
import { balanceRepo } from '../balances/balance.repo.js'
import type { BalancesTable } from '../../db/schema.js'
import { transactionRepo, toTransaction } from '../transactions/transaction.repo.js'
import type { BankTransactionCode, ReturnReason, Transaction, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { TRANSACTIONS } from '../transactions/transaction.service.js'

/**
 * How banks report to Kassa. Every bank connector — the sandbox bank, an imported camt.053
 * statement — hands its booked entries and balances to these two functions, inside the caller's
 * transaction, so what a bank reported is stored once whichever way it arrived.
 */

/** Rows per multi-row INSERT, below both backends' bind-parameter limits: events have 11 columns, deliveries 17. */
const EVENT_CHUNK = 2000
const DELIVERY_CHUNK = 1000

export interface BookedEntry {
  /** The bank's unique reference of the entry on this account; a repeated one is ignored. */
  entryReference: string
  /** Signed minor units of the account's currency: negative is an outflow. */
  amount: number
  date: string
  valueDate: string
  description: string
  reference?: string
  endToEndId?: string
  mandateReference?: string
  counterparty?: TransactionCounterparty
  bankTransactionCode?: BankTransactionCode
  returnReason?: ReturnReason
}

/** Books the entries the account does not have yet; returns the transactions created, with their CREATED events written. */
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
  await recordBookedEvents(trx, account.organization_id, transactions, originator, now)
  return transactions
}

/**
 * `recordEvent` for the CREATED events of transactions just booked, in multi-row INSERTs: each is its
 * transaction's first event (sequence 1), so recordEvent's per-event sequence lookup is not needed, and
 * the webhook outbox gets exactly what `enqueueEventDeliveries` would give each event, from one read of
 * the organization's live webhooks. Per event, that would be three round trips for each entry of a
 * 100,000-entry statement.
 */
async function recordBookedEvents(
  trx: Executor,
  organizationId: string,
  transactions: Transaction[],
  originator: string,
  timestamp: string,
): Promise<void> {
  const rows: EventsTable[] = transactions.map((transaction) => ({
    organization_id: organizationId,
    entity_type: TRANSACTIONS,
    entity_id: transaction.id,
    sequence: 1,
    type: 'CREATED',
    name: 'BOOKED',
    timestamp,
    originator,
    message: null,
    entity_version: transaction.version,
    entity: JSON.stringify(transaction),
  }))
  for (let start = 0; start < rows.length; start += EVENT_CHUNK) {
    await trx.insertInto('events').values(rows.slice(start, start + EVENT_CHUNK)).execute()
  }

  if (transactions.length === 0) return
  const webhooks = (await webhookRepo.listLive(trx, organizationId)).map((webhook) => ({
    id: webhook.id,
    filter: JSON.parse(webhook.filter) as WebhookFilter[],
  }))
  const created = { type: 'CREATED', name: 'BOOKED' } as const
  const subscribed = webhooks.flatMap((webhook) => {
    const entry = matchingFilter(webhook.filter, TRANSACTIONS, created)
    return entry ? [{ webhookId: webhook.id, apiVersion: entry.apiVersion }] : []
  })
  if (subscribed.length === 0) return
  let deliveries: NewDelivery[] = []
  for (const transaction of transactions) {
    const event: Event = { id: 1, organizationId, entityId: transaction.id, ...created, timestamp, originator, entityVersion: transaction.version }
    for (const { webhookId, apiVersion } of subscribed) deliveries.push(deliveryOf(webhookId, TRANSACTIONS, apiVersion, event, transaction))
    if (deliveries.length >= DELIVERY_CHUNK) {
      await deliveryRepo.enqueue(trx, deliveries, timestamp)
      deliveries = []
    }
  }
  await deliveryRepo.enqueue(trx, deliveries, timestamp)
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
