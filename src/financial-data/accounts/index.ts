export { accountRoutes } from './account.routes.js'
export { accountRepo, toAccount, type NumberedAccount, type PaymentAccount } from './account.repo.js'
export { accountNumberKey } from './account-numbers.js'
export { Account } from './account.schemas.js'
