import type { Database } from '../db/database.js'
import { openSandboxAccounts, seedSandboxBank } from '../financial-data/index.js'
import { createBuiltinRoles, createProgrammaticAccess, type Credentials } from '../iam/index.js'
import { nowIso } from '../shared/clock.js'
import { newId } from '../shared/ids.js'

export interface SandboxOrganizationOptions {
  /** The sandbox bank's starting business date (yyyy-mm-dd); today's UTC date by default. */
  today?: string
  /** A chosen id (tests of deterministic seeding); a new UUIDv7 by default. */
  organizationId?: string
}

/**
 * A new sandbox organization: its built-in roles, an Owner access key, its accounts at the sandbox
 * bank and their seeded history — all in one transaction. The returned secret is shown once and
 * stored only hashed.
 */
export async function createSandboxOrganization(database: Database, name: string, options: SandboxOrganizationOptions = {}): Promise<Credentials> {
  return database.transaction(async (trx) => {
    const organizationId = options.organizationId ?? newId()
    await trx.insertInto('organizations').values({ id: organizationId, name, environment: 'SANDBOX', created: nowIso() }).execute()
    await createBuiltinRoles(trx, organizationId)
    const credentials = await createProgrammaticAccess(trx, organizationId, 'owner', 'Owner')
    const accounts = await openSandboxAccounts(trx, organizationId)
    await seedSandboxBank(trx, organizationId, accounts, options.today ?? nowIso().slice(0, 10))
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
