import { randomBytes } from 'node:crypto'
import type { Database, Executor } from '../../db/database.js'
import type { UsersTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { recordEvent, SYSTEM_ORIGINATOR } from '../../events/index.js'
import { invalidField } from '../../http/errors.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import { recordAuditEntry } from '../audit-log/audit-log.service.js'
import { RoleNotFoundError } from '../iam.service.js'
import { assertMayGrant, rightsOf } from '../privileges.js'
import { roleRepo } from '../roles/role.repo.js'
import { sessionRepo } from '../sessions/session.repo.js'
import { newUserRow, toUser, userRepo } from '../users/user.repo.js'
import { loadUser, roleOf, USERS } from '../users/user.service.js'
import { hashPassword } from './password-hash.js'
import { assertAcceptablePassword } from './password-policy.js'
import { passwordRepo } from './password.repo.js'
import type { OneTimePassword } from './password.schemas.js'

export interface NewPassword {
  /** The scrypt hash (hash before the transaction: it takes ~0.1 s). */
  hash: string
  /** A one-time password: its sessions may do nothing but set a new one. */
  changeRequired: boolean
}

/**
 * Stores a user's new password. A password is part of the user: a new version of the user and the event
 * PASSWORD_SET in its history (never the password). Every other session of the user ends, as after any
 * password change (the reason to change one is often that someone else may know it).
 * @param keepSessionId the session that changes its own password, which stays signed in.
 */
export async function storePassword(trx: Executor, user: UsersTable, password: NewPassword, originator: string, keepSessionId?: string): Promise<void> {
  const now = nowIso()
  await passwordRepo.set(trx, { user_id: user.id, password_hash: password.hash, change_required: password.changeRequired ? 1 : 0, updated: now })
  await sessionRepo.revokeAllOf(trx, user.id, now, keepSessionId)
  const touched = await userRepo.touch(trx, user.id, now)
  if (!touched) throw new Error(`The user ${user.id} was deleted`)
  await recordEvent(trx, {
    organizationId: user.organization_id,
    entityType: USERS,
    entityId: user.id,
    type: 'UPDATED',
    name: 'PASSWORD_SET',
    originator,
    message: password.changeRequired ? 'One-time password set: a new one is required at sign-in' : 'Password set',
    entity: toUser(touched),
  })
}

export interface NewPerson {
  organizationId: string
  name: string
  email: string
  roleName: string
}

/**
 * Inserts a HUMAN user with a role (by name) and a password, made by the system (the CLI, the first start).
 * @throws RoleNotFoundError for an unknown role; a unique violation when the email is taken.
 */
export async function insertPerson(trx: Executor, person: NewPerson, password: NewPassword): Promise<UsersTable> {
  const role = await roleRepo.findByName(trx, person.organizationId, person.roleName)
  if (!role) throw new RoleNotFoundError(`Organization ${person.organizationId} has no role "${person.roleName}"`)
  const user = newUserRow({ organization_id: person.organizationId, kind: 'HUMAN', name: person.name, email: person.email.toLowerCase(), role_id: role.id })
  await userRepo.insert(trx, user)
  await recordEvent(trx, { organizationId: user.organization_id, entityType: USERS, entityId: user.id, type: 'CREATED', name: 'CREATED', originator: SYSTEM_ORIGINATOR, entity: toUser(user) })
  await storePassword(trx, user, password, SYSTEM_ORIGINATOR)
  return (await userRepo.find(trx, user.organization_id, user.id))!
}

/**
 * `kassa users create`: a person with a role (by name) and a password they chose.
 * @throws RoleNotFoundError for an unknown role; Error when the email is taken; ApiError invalid_request for a weak password.
 */
export async function createPerson(database: Database, person: NewPerson, password: string): Promise<UsersTable> {
  const email = person.email.toLowerCase()
  assertAcceptablePassword(password, email)
  const hash = await hashPassword(password)
  try {
    return await database.transaction((trx) => insertPerson(trx, { ...person, email }, { hash, changeRequired: false }))
  } catch (error) {
    if (isUniqueViolation(error)) throw new Error(`The organization already has a user with the email ${email}`)
    throw error
  }
}

/**
 * Sets the password of the person with this email (`kassa users set-password`): no change is then
 * required, and every session of theirs ends.
 * @throws Error when the organization has no such person; ApiError invalid_request for a weak password.
 */
export async function setPersonPassword(database: Database, organizationId: string, email: string, password: string): Promise<UsersTable> {
  const lower = email.toLowerCase()
  assertAcceptablePassword(password, lower)
  const hash = await hashPassword(password)
  return database.transaction(async (trx) => {
    const user = await passwordRepo.personByEmail(trx, organizationId, lower)
    if (!user) throw new Error(`Organization ${organizationId} has no person (HUMAN user) with the email ${lower}`)
    await storePassword(trx, user, { hash, changeRequired: false }, SYSTEM_ORIGINATOR)
    return user
  })
}

/** A one-time password to print once: 20 characters of base32, about 100 bits. */
export function newOneTimePassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789'
  const bytes = randomBytes(20)
  const characters = [...bytes].map((byte) => alphabet[byte % alphabet.length]).join('')
  return characters.match(/.{5}/g)!.join('-')
}

export function createPasswordService() {
  return {
    /**
     * A one-time password for a person (an invitation, a reset): shown once, stored hashed, to be replaced at
     * first sign-in. Their sessions end.
     * @throws ApiError not_found (404), gone (410), invalid_request (400: not a HUMAN user), forbidden (403:
     * the user holds rights the actor lacks — else an admin could sign in as an Owner).
     */
    async giveOneTimePassword(ctx: CommandContext, userId: string): Promise<OneTimePassword> {
      const password = newOneTimePassword()
      const hash = await hashPassword(password)
      const created = nowIso()
      // The transaction stores the response for Idempotency-Key replays: without the password.
      await ctx.transaction(async (trx) => {
        const user = await loadUser(trx, ctx.actor.organizationId, userId)
        if (user.kind !== 'HUMAN') throw invalidField('id', 'is a PROGRAMMATIC user: they act through access keys and have no password')
        assertMayGrant(ctx.actor, rightsOf(await roleOf(trx, user)), 'give a one-time password to a user with')
        await storePassword(trx, user, { hash, changeRequired: true }, ctx.actor.userId)
        // Never the password nor its hash: only that a one-time one was given.
        await recordAuditEntry(trx, ctx, { action: 'passwords.set_one_time', resourceType: USERS, resourceId: user.id, after: { passwordChangeRequired: true } })
        return { created }
      })
      return { password, created }
    },
  }
}
