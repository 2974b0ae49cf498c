import type { Executor } from '../../db/database.js'

/** The name of the counterparty's UPDATED event when one of its accounts is added, changed or deleted. */
export type AccountChange = 'EXTERNAL_ACCOUNT_ADDED' | 'EXTERNAL_ACCOUNT_UPDATED' | 'EXTERNAL_ACCOUNT_DELETED'

/**
 * The counterparties that hold external accounts, as this folder needs them. A counterparty shows its live
 * accounts (reference §2.5 accounts[]), so adding, changing or deleting one changes the counterparty too: its
 * version and etag move on, so an If-Match read before is stale after, and it records an UPDATED event.
 * counterparties/ implements this and app.ts hands it in: counterparties/ builds on this folder, not the reverse.
 */
export interface AccountHolders {
  /**
   * Locks the organization's live counterparty `id` and moves its version on. Every change of its accounts
   * takes this lock first, as the counterparty's own PATCH and DELETE do, so they all take turns.
   * @returns false when the organization has no live counterparty `id`.
   */
  lockForAccountChange(trx: Executor, organizationId: string, id: string): Promise<boolean>
  /** Records the counterparty's UPDATED event `name`, with the counterparty as it now is, accounts included. */
  recordAccountChange(trx: Executor, organizationId: string, id: string, originator: string, name: AccountChange): Promise<void>
}
