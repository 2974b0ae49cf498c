export { accountRoutes } from './account.routes.js'
export { accountRepo, toAccount } from './account.repo.js'
export { Account } from './account.schemas.js'
