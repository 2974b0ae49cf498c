export { externalAccountRoutes } from './external-account.routes.js'
export { accountNumbersText, externalAccountRepo, toExternalAccount } from './external-account.repo.js'
export { EXTERNAL_ACCOUNTS } from './external-account.service.js'
export { ExternalAccount, CreateEmbeddedExternalAccount } from './external-account.schemas.js'
