export { counterpartyRoutes } from './counterparties/index.js'
export { externalAccountRoutes } from './external-accounts/index.js'
