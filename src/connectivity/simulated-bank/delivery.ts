import type { Database } from '../../db/database.js'
import { nowIso } from '../../shared/clock.js'
import { createInboundFileService } from '../files-in/inbound-file.service.js'
import { writeAtomically } from '../files-out/outbox-writer.js'
import { simulatedBankRepo } from './simulated-bank.repo.js'

export interface Delivery {
  delivered: number
  failures: { answerId: string; error: unknown }[]
}

/**
 * After commit, never inside a transaction: each answer the simulated bank wrote reaches Kassa as a real bank's
 * file would — dropped atomically into the connection's inboxDir (the inbox reader then takes it), or, for a
 * connection without one, received as an upload is (POST /connectivity/v2/connections/{id}/files). It is marked
 * delivered after; a crash between the two delivers it again, which changes nothing (files in are idempotent by
 * content, and an answer dropped twice is the same file under the same name).
 */
export async function deliverAnswers(database: Database): Promise<Delivery> {
  const service = createInboundFileService(database)
  const delivery: Delivery = { delivered: 0, failures: [] }
  for (const answer of await simulatedBankRepo.undelivered(database.db)) {
    try {
      if (answer.inbox_dir) {
        await writeAtomically(answer.inbox_dir, `${answer.message_type}-${answer.id}.xml`, answer.content)
      } else {
        const ctx = { actor: { organizationId: answer.organization_id }, transaction: database.transaction.bind(database) }
        await service.receive(ctx, answer.connection_id, answer.content)
      }
      await simulatedBankRepo.markDelivered(database.db, answer.id, nowIso())
      delivery.delivered += 1
    } catch (error) {
      delivery.failures.push({ answerId: answer.id, error })
    }
  }
  return delivery
}
