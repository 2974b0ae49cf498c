import type { Executor } from '../../db/database.js'
import type { UserTotpTable } from '../../db/schema.js'

export const totpRepo = {
  async find(db: Executor, userId: string): Promise<UserTotpTable | undefined> {
    return db.selectFrom('user_totp').selectAll().where('user_id', '=', userId).executeTakeFirst()
  },

  /** Starts an enrollment, replacing an unconfirmed one. */
  async setUnconfirmed(trx: Executor, row: UserTotpTable): Promise<void> {
    await trx
      .insertInto('user_totp')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ secret: row.secret, confirmed_at: null, last_used_step: 0, created: row.created }))
      .execute()
  },

  async confirm(trx: Executor, userId: string, now: string, step: number): Promise<boolean> {
    const result = await trx
      .updateTable('user_totp')
      .set({ confirmed_at: now, last_used_step: step })
      .where('user_id', '=', userId)
      .where('confirmed_at', 'is', null)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  /**
   * Records that a code of `step` was used; false when a code of this or a later step already was (a
   * replay, or a concurrent sign-in with the same code).
   */
  async use(trx: Executor, userId: string, step: number): Promise<boolean> {
    const result = await trx
      .updateTable('user_totp')
      .set({ last_used_step: step })
      .where('user_id', '=', userId)
      .where('last_used_step', '<', step)
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  },

  async remove(trx: Executor, userId: string): Promise<void> {
    await trx.deleteFrom('user_totp').where('user_id', '=', userId).execute()
  },
}
