import type { IdentityReferences } from '../../iam/index.js'
import { approvalChainRepo } from './approval-chain.repo.js'

/** Approval chains name roles and users: IAM asks here before it deletes one (see IdentityReferences). */
export const approvalChainReferences: IdentityReferences = {
  referrer: 'approval chain',
  namesReferencing: (db, organizationId, id) => approvalChainRepo.namesReferencing(db, organizationId, id),
}
