import { sql, type CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedQuery } from '../../db/prepared-query.js'

// LIMIT as a literal: SQLite ran this read three times slower with a bound LIMIT (issue 14: 11 µs of every create).
const ownerRole = preparedQuery((db, parameter: (name: 'organizationId') => string) =>
  db.selectFrom('roles').select('id').where('organization_id', '=', parameter('organizationId')).where('owner', '=', 1).orderBy('created').limit(sql.lit(1)),
)

/** The id of the organization's Owner role: the approver of last resort (spec: Approval rules). */
export async function ownerRoleId(db: Executor, organizationId: string): Promise<string> {
  return ownerRoleIdOf(await ownerRole(db, { organizationId }))
}

/** ownerRoleId as a statement to run with others (runTogether); ownerRoleIdOf reads its rows. */
export function ownerRoleStatement(db: Executor, organizationId: string): CompiledQuery<{ id: string }> {
  return ownerRole.bind(db, { organizationId })
}

/** The Owner role's id from ownerRoleStatement's rows. @throws Error when the organization has none (it always has). */
export function ownerRoleIdOf(rows: readonly { id: string }[]): string {
  if (!rows[0]) throw new Error('The organization has no Owner role')
  return rows[0].id
}
