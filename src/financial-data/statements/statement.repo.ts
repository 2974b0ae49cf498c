import type { Executor } from '../../db/database.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { normalizeIban } from './statement-entries.js'
import type { StatementAccount } from './statement.validation.js'

export const statementRepo = {
  /** The organization's accounts by IBAN (normalized: no spaces, upper case); identifiers are JSON text. */
  async accountsByIban(db: Executor, organizationId: string): Promise<Map<string, StatementAccount[]>> {
    const rows = await db
      .selectFrom('accounts')
      .select(['id', 'organization_id', 'currency', 'identifiers'])
      .where('organization_id', '=', organizationId)
      .execute()
    const byIban = new Map<string, StatementAccount[]>()
    for (const { identifiers, ...account } of rows) {
      for (const identifier of JSON.parse(identifiers) as AccountIdentifier[]) {
        if (identifier.type !== 'IBAN') continue
        const iban = normalizeIban(identifier.number)
        byIban.set(iban, [...(byIban.get(iban) ?? []), account])
      }
    }
    return byIban
  },
}
