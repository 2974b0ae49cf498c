import type { operations } from '@kassa/client'

/**
 * The API's resources as the generated client types them (from docs/openapi.json): named here once so
 * pages say `CreditTransfer`, never a second copy of a schema.
 */
type Json<Operation extends keyof operations, Status extends keyof operations[Operation]['responses']> =
  operations[Operation]['responses'][Status] extends { content: { 'application/json': infer Body } } ? Body : never

export type Session = Json<'getSession', 200>
export type CreditTransfer = Json<'getCreditTransfer', 200>
export type DirectDebit = Json<'getDirectDebit', 200>
export type Payment = CreditTransfer | DirectDebit
export type ApprovalStep = Payment['approvalSteps'][number]
export type Amount = Payment['amount']
export type AccountSnapshot = Payment['source']
