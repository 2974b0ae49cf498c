import type { Executor } from '../../db/database.js'
import type { ApprovalChain, ChainStep, ChainTrigger } from './approval-rules.js'

export const approvalChainRepo = {
  /** The organization's live chains, oldest first: the order their steps are added to a payment. */
  async listLive(db: Executor, organizationId: string): Promise<ApprovalChain[]> {
    const rows = await db
      .selectFrom('approval_chains')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null)
      .orderBy('id')
      .execute()
    return rows.map((row) => ({
      id: row.id,
      trigger: JSON.parse(row.trigger) as ChainTrigger,
      steps: JSON.parse(row.steps) as ChainStep[],
      autoApprove: row.auto_approve === 1,
      ...(row.auto_approve_below !== null ? { autoApproveBelow: row.auto_approve_below } : {}),
    }))
  },
}
