import type { Executor } from '../../db/database.js'
import { SANDBOX_BANK_BIC, SANDBOX_BANK_NAME } from '../../financial-data/sandbox/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { MAX_NAME_LENGTH } from '../bank-files/index.js'
import { connectionRepo, settingColumns } from './connection.repo.js'
import { DEFAULT_BATCHING_WINDOW_SECONDS, DEFAULT_MESSAGE_VERSIONS } from './connection.schemas.js'

/**
 * The sandbox bank's own connection (type SANDBOX) for a new sandbox organization, in the caller's transaction;
 * its id. The sandbox bank's accounts name it as their thirdPartyId; payments from them go through the sandbox
 * bank's connector, not through files, so it has no directories. It cannot be deleted while they use it.
 */
export async function openSandboxConnection(trx: Executor, organizationId: string, organizationName: string): Promise<string> {
  const now = nowIso()
  const id = newId()
  await connectionRepo.insert(trx, {
    id,
    organization_id: organizationId,
    external_id: null,
    type: 'SANDBOX',
    simulated_bank: 0,
    ...settingColumns({
      name: SANDBOX_BANK_NAME,
      bank: { name: SANDBOX_BANK_NAME, bic: SANDBOX_BANK_BIC },
      messageVersions: DEFAULT_MESSAGE_VERSIONS,
      initiatingParty: { name: organizationName.slice(0, MAX_NAME_LENGTH) },
      batchingWindowSeconds: DEFAULT_BATCHING_WINDOW_SECONDS,
      metadata: {},
    }),
    version: 1,
    created: now,
    updated: now,
    deleted_at: null,
  })
  return id
}
