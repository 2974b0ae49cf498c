import type { Executor } from '../../db/database.js'
import type { UserPasswordsTable, UsersTable } from '../../db/schema.js'

/** A live HUMAN user who may sign in, with their password. */
export type PersonWithPassword = UsersTable & Pick<UserPasswordsTable, 'password_hash' | 'change_required'>

export const passwordRepo = {
  /** Inserts or replaces the user's password. */
  async set(trx: Executor, row: UserPasswordsTable): Promise<void> {
    await trx
      .insertInto('user_passwords')
      .values(row)
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ password_hash: row.password_hash, change_required: row.change_required, updated: row.updated }))
      .execute()
  },

  async find(db: Executor, userId: string): Promise<UserPasswordsTable | undefined> {
    return db.selectFrom('user_passwords').selectAll().where('user_id', '=', userId).executeTakeFirst()
  },

  /** The live people with this (lower-case) email and a password, in one organization or in all; oldest first. */
  async peopleByEmail(db: Executor, email: string, organizationId: string | undefined): Promise<PersonWithPassword[]> {
    let query = db
      .selectFrom('users as u')
      .innerJoin('user_passwords as p', 'p.user_id', 'u.id')
      .selectAll('u')
      .select(['p.password_hash', 'p.change_required'])
      .where('u.email', '=', email)
      .where('u.kind', '=', 'HUMAN')
      .where('u.deleted_at', 'is', null)
      // A deactivated person is refused like an unknown email (issue 11).
      .where('u.deactivated_at', 'is', null)
    if (organizationId !== undefined) query = query.where('u.organization_id', '=', organizationId)
    return query.orderBy('u.id', 'asc').limit(10).execute()
  },

  /** A live HUMAN user by email in an organization (for the CLI), with or without a password. */
  async personByEmail(db: Executor, organizationId: string, email: string): Promise<UsersTable | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('email', '=', email)
      .where('kind', '=', 'HUMAN')
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
  },
}
