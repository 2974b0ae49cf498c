import type { Executor } from '../db/database.js'

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

  /** @returns false when there is no such organization. */
  async setApprovalsRequireSecondFactor(db: Executor, organizationId: string, required: boolean): Promise<boolean> {
    const result = await db
      .updateTable('organizations')
      .set({ approvals_require_second_factor: required ? 1 : 0 })
      .where('id', '=', organizationId)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },
}
