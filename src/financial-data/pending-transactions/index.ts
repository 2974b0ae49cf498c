export { pendingTransactionRoutes } from './pending-transaction.routes.js'
