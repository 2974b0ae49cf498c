import { paginate, type ListItem } from '@kassa/client'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import type { Payment } from '../api/types'
import type { Transaction } from '../accounts/account-types'
import type { PaymentKind } from './parties'

export type PaymentEvent = ListItem<'/payments/v2/credit-transfers/{id}/events'>

/** A payment with its history (its events, oldest first) and the bank transactions it was reconciled to. */
export interface PaymentRecord {
  payment: Payment
  events: PaymentEvent[]
  /** The transactions, or why they could not be read (a role may read payments and not transactions). */
  transactions: Transaction[] | Problem
}

/** Statuses a payment rests in: nothing more happens to it without a person or a return (payment-status.ts). */
export const SETTLED_STATUSES: ReadonlySet<Payment['status']> = new Set(['RECONCILED', 'REJECTED', 'FAILED', 'RETURNED', 'CANCELLED'])

async function all<Item>(items: AsyncIterable<Item>): Promise<Item[]> {
  const collected: Item[] = []
  for await (const item of items) collected.push(item)
  return collected
}

async function paymentAndEvents(kind: PaymentKind, id: string): Promise<[Payment, PaymentEvent[]]> {
  const params = { params: { path: { id } } }
  const history = { path: { id }, query: { limit: 500 } }
  return kind === 'CREDIT_TRANSFER'
    ? Promise.all([kassa.GET('/payments/v2/credit-transfers/{id}', params).then(({ data }) => data), all(paginate(kassa, '/payments/v2/credit-transfers/{id}/events', history))])
    : Promise.all([kassa.GET('/payments/v2/direct-debits/{id}', params).then(({ data }) => data), all(paginate(kassa, '/payments/v2/direct-debits/{id}/events', history))])
}

/** Reads the payment, all its events, and each transaction in its attachedTransactions. */
export async function loadPaymentRecord(kind: PaymentKind, id: string): Promise<PaymentRecord> {
  const [payment, events] = await paymentAndEvents(kind, id)
  const transactions = await Promise.all(
    payment.attachedTransactions.map(async (attached) => (await kassa.GET('/financial-data/v2/transactions/{id}', { params: { path: { id: attached.id } } })).data),
  ).catch(problemOf)
  return { payment, events, transactions }
}
