import type { Executor } from '../db/database.js'
import { recordAuditEntry } from './audit-log/audit-log.service.js'

/**
 * Settings an organization keeps on its own row. One today (issue 11): whether approving a payment needs
 * a session signed in with a TOTP code — payments ask, through the Actor's `secondFactor`, and know nothing
 * of sessions.
 */
export const organizationSettings = {
  async approvalsRequireSecondFactor(db: Executor, organizationId: string): Promise<boolean> {
    const row = await db.selectFrom('organizations').select('approvals_require_second_factor').where('id', '=', organizationId).executeTakeFirst()
    return row?.approvals_require_second_factor === 1
  },

  /**
   * Sets it, and logs the change (issue 13) as the system's: the CLI (`kassa orgs update`) is the one way to make it.
   * Run it in a transaction so the entry commits with the change.
   * @returns false when there is no such organization.
   */
  async setApprovalsRequireSecondFactor(trx: Executor, organizationId: string, required: boolean): Promise<boolean> {
    const before = await organizationSettings.approvalsRequireSecondFactor(trx, organizationId)
    const result = await trx
      .updateTable('organizations')
      .set({ approvals_require_second_factor: required ? 1 : 0 })
      .where('id', '=', organizationId)
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) return false
    await recordAuditEntry(trx, { actor: { type: 'SYSTEM', organizationId } }, {
      action: 'organizations.update',
      resourceType: 'organizations',
      resourceId: organizationId,
      before: { approvalsRequireTotp: before },
      after: { approvalsRequireTotp: required },
    })
    return true
  },
}
