/** The sandbox bank: what other domains (payments, organizations, the CLI, the HTTP app) may import. */
export { openSandboxAccounts, SANDBOX_BANK_BIC, SANDBOX_BANK_NAME, type OpenedSandboxAccount } from './sandbox-accounts.js'
export { seedSandboxBank } from './sandbox-seeding.js'
export {
  BANK_ORIGINATOR,
  BankConnectorError,
  type AppliedReport,
  paymentStatusListener,
  setPaymentStatusListener,
  setFileAnswer,
  type FileAnswer,
  type BankConnector,
  type BankStatus,
  type InstructionStatus,
  type PaymentInstruction,
  type PaymentStatusListener,
  type PaymentStatusReport,
  type PaymentType,
} from './bank-connector.js'
export {
  sandboxConnectorFor,
  createSandboxBank,
  sandboxBankOf,
  MAX_ADVANCE_DAYS,
  SANDBOX_CONNECTOR,
  type AdvanceTarget,
  type Injection,
  type ProcessDueResult,
  type SandboxBank,
  type SandboxBankOptions,
  type SandboxClock,
  type StepResult,
} from './sandbox-bank.js'
export { sandboxTodayOf, sandboxTodayStatements } from './sandbox-today.js'
export { RETURNING_IBAN, REASONS } from './bank-codes.js'
export { sandboxRoutes } from './sandbox.routes.js'
