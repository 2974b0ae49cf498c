import type { Database } from '../db/database.js'
import { openSandboxAccounts } from '../financial-data/index.js'
import { createBuiltinRoles, createProgrammaticAccess, type Credentials } from '../iam/index.js'
import { nowIso } from '../shared/clock.js'
import { newId } from '../shared/ids.js'

/**
 * A new sandbox organization: its built-in roles, an Owner access key, and its accounts at the
 * sandbox bank — all in one transaction. The returned secret is shown once and stored only hashed.
 */
export async function createSandboxOrganization(database: Database, name: string): Promise<Credentials> {
  return database.transaction(async (trx) => {
    const organizationId = newId()
    await trx.insertInto('organizations').values({ id: organizationId, name, environment: 'SANDBOX', created: nowIso() }).execute()
    await createBuiltinRoles(trx, organizationId)
    const credentials = await createProgrammaticAccess(trx, organizationId, 'owner', 'Owner')
    await openSandboxAccounts(trx, organizationId)
    return credentials
  })
}

export async function hasOrganizations(database: Database): Promise<boolean> {
  const row = await database.db.selectFrom('organizations').select('id').limit(1).executeTakeFirst()
  return row !== undefined
}

export async function organizationExists(database: Database, organizationId: string): Promise<boolean> {
  const row = await database.db.selectFrom('organizations').select('id').where('id', '=', organizationId).executeTakeFirst()
  return row !== undefined
}
