export { counterpartyRoutes } from './counterparty.routes.js'
export { Counterparty } from './counterparty.schemas.js'
