export { reconciliationRoutes } from './reconciliation.routes.js'
export { attachedPaymentsTotal } from './reconciliation.repo.js'
export { reconcilePayment, withAttachedTransaction } from './payment-reconciliation.js'
