import { kassa } from '../api/kassa'
import type { WaitingApproval } from './waiting-approval'

/** Approves the person's step of a waiting payment (POST …:approve); the API refuses when they may not. */
export async function approve(item: WaitingApproval): Promise<void> {
  const init = { params: { path: { id: item.payment.id } }, body: { approvalStepId: item.step.id } }
  if (item.kind === 'CREDIT_TRANSFER') await kassa.POST('/payments/v2/credit-transfers/{id}:approve', init)
  else await kassa.POST('/payments/v2/direct-debits/{id}:approve', init)
}

/** Rejects a waiting payment for good (POST …:reject), with the reason kept in its history. */
export async function reject(item: WaitingApproval, reason: string): Promise<void> {
  const init = { params: { path: { id: item.payment.id } }, body: reason.trim() ? { reason: reason.trim() } : {} }
  if (item.kind === 'CREDIT_TRANSFER') await kassa.POST('/payments/v2/credit-transfers/{id}:reject', init)
  else await kassa.POST('/payments/v2/direct-debits/{id}:reject', init)
}
