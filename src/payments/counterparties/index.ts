export { counterpartyRoutes } from './counterparty.routes.js'
export { counterpartyAccountHolders } from './counterparty-accounts.js'
export { Counterparty } from './counterparty.schemas.js'
