export { accountRoutes } from './accounts/index.js'
export { openSandboxAccounts } from './sandbox/sandbox-accounts.js'
