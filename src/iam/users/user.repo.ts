import type { Executor } from '../../db/database.js'
import type { UsersTable } from '../../db/schema.js'

export const userRepo = {
  async insert(trx: Executor, row: UsersTable): Promise<void> {
    await trx.insertInto('users').values(row).execute()
  },
}
