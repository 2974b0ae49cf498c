export { counterpartyRoutes } from './counterparties/index.js'
export { externalAccountRoutes } from './external-accounts/index.js'
export { creditTransferRoutes } from './credit-transfers/credit-transfer.routes.js'
