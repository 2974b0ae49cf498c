import type { Executor } from '../../db/database.js'

/** The id of the organization's Owner role: the approver of last resort (spec: Approval rules). */
export async function ownerRoleId(db: Executor, organizationId: string): Promise<string> {
  const role = await db
    .selectFrom('roles')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('owner', '=', 1)
    .orderBy('created')
    .executeTakeFirstOrThrow()
  return role.id
}
