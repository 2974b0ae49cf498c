import type { Database } from '../db/database.js'
import { openSandboxConnection } from '../connectivity/index.js'
import { createFirstEntity, openSandboxAccounts, seedSandboxBank } from '../financial-data/index.js'
import { createBuiltinRoles, createProgrammaticAccess, hashPassword, insertPerson, newOneTimePassword, type Credentials } from '../iam/index.js'
import { nowIso } from '../shared/clock.js'
import { newId } from '../shared/ids.js'

export interface SandboxOrganizationOptions {
  /** The sandbox bank's starting business date (yyyy-mm-dd); today's UTC date by default. */
  today?: string
  /** A chosen id (tests of deterministic seeding); a new UUIDv7 by default. */
  organizationId?: string
  /** Also a person who signs in as an Owner with a one-time password (the first start of `kassa serve`). */
  ownerSignIn?: boolean
}

/** The sandbox Owner's email for signing in: example.com is reserved for examples (RFC 2606), so it reaches no one. */
export const SANDBOX_OWNER_EMAIL = 'owner@example.com'

/** A new organization's Owner key, and with `ownerSignIn` a sign-in whose password must be changed at first use. */
export interface SandboxOrganization extends Credentials {
  signIn?: { email: string; oneTimePassword: string }
}

/**
 * A new sandbox organization: its built-in roles, an Owner access key (and, asked for, an Owner who signs
 * in), its one entity (named as the organization), the sandbox bank's own connection, its accounts at the
 * sandbox bank (belonging to that entity, held through that connection) and their seeded history — all in one
 * transaction. The returned secret and one-time password are shown once and stored only hashed.
 */
export async function createSandboxOrganization(database: Database, name: string, options: SandboxOrganizationOptions = {}): Promise<SandboxOrganization> {
  const oneTimePassword = options.ownerSignIn ? newOneTimePassword() : undefined
  // Hashed before the transaction: scrypt takes a tenth of a second, the write lock should not wait for it.
  const hash = oneTimePassword === undefined ? undefined : await hashPassword(oneTimePassword)
  return database.transaction(async (trx): Promise<SandboxOrganization> => {
    const organizationId = options.organizationId ?? newId()
    await trx.insertInto('organizations').values({ id: organizationId, name, environment: 'SANDBOX', created: nowIso() }).execute()
    await createBuiltinRoles(trx, organizationId)
    const credentials = await createProgrammaticAccess(trx, organizationId, 'owner', 'Owner')
    if (hash !== undefined) {
      await insertPerson(trx, { organizationId, name: 'Sandbox Owner', email: SANDBOX_OWNER_EMAIL, roleName: 'owner' }, { hash, changeRequired: true })
    }
    const entityId = await createFirstEntity(trx, organizationId, name)
    const connectionId = await openSandboxConnection(trx, organizationId, name)
    const accounts = await openSandboxAccounts(trx, organizationId, { entityId, connectionId })
    await seedSandboxBank(trx, organizationId, accounts, options.today ?? nowIso().slice(0, 10))
    return oneTimePassword === undefined ? credentials : { ...credentials, signIn: { email: SANDBOX_OWNER_EMAIL, oneTimePassword } }
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
