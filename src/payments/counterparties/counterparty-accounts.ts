import { recordEvent } from '../../events/index.js'
import { nowIso } from '../../shared/clock.js'
import type { AccountHolders } from '../external-accounts/index.js'
import { counterpartyRepo, toCounterparty } from './counterparty.repo.js'
import { findWithAccounts } from './counterparty-with-accounts.js'
import { COUNTERPARTIES } from './counterparty.service.js'

/** Counterparties as the holders of external accounts: what external-accounts/ changes of them (see AccountHolders). */
export const counterpartyAccountHolders: AccountHolders = {
  lockForAccountChange: (trx, organizationId, id) => counterpartyRepo.bump(trx, organizationId, id, nowIso()),

  async recordAccountChange(trx, organizationId, id, originator, name) {
    // Locked by lockForAccountChange earlier in this transaction, so it is there.
    const { counterparty, accounts } = (await findWithAccounts(trx, organizationId, { id }))!
    const entity = toCounterparty(counterparty, accounts)
    await recordEvent(trx, { organizationId, entityType: COUNTERPARTIES, entityId: id, type: 'UPDATED', name, originator, entity })
  },
}
