import type { PaymentKind } from './parties'

/**
 * The two kinds of payment as the Payments pages show them: each its tab (the list's address), its
 * detail addresses (/payments/credit-transfers/:id, /payments/direct-debits/:id) and its words.
 */
export interface KindView {
  kind: PaymentKind
  /** The kind in addresses: /payments/{segment}/{id}. */
  segment: 'credit-transfers' | 'direct-debits'
  /** The tab's address. Credit transfers are the Payments page itself (/payments), the work done most. */
  listPath: string
  plural: string
}

export const KIND_VIEWS: readonly KindView[] = [
  { kind: 'CREDIT_TRANSFER', segment: 'credit-transfers', listPath: '/payments', plural: 'Credit transfers' },
  { kind: 'DIRECT_DEBIT', segment: 'direct-debits', listPath: '/payments/direct-debits', plural: 'Direct debits' },
]

/** The kind an address segment names ("direct-debits"); undefined for anything else. */
export function kindView(segment: string): KindView | undefined {
  return KIND_VIEWS.find((view) => view.segment === segment)
}

export function viewOf(kind: PaymentKind): KindView {
  return KIND_VIEWS.find((view) => view.kind === kind)!
}

/** The detail page of a payment. */
export function paymentPath(kind: PaymentKind, id: string): string {
  return `/payments/${viewOf(kind).segment}/${id}`
}
