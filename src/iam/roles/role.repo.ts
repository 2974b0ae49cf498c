import type { Executor } from '../../db/database.js'
import type { RolesTable } from '../../db/schema.js'

export const roleRepo = {
  async insert(trx: Executor, row: RolesTable): Promise<void> {
    await trx.insertInto('roles').values(row).execute()
  },

  async findByName(trx: Executor, organizationId: string, name: string): Promise<RolesTable | undefined> {
    return trx
      .selectFrom('roles')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('name', '=', name)
      .executeTakeFirst()
  },
}
