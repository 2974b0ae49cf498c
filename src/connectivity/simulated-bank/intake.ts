import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Database, Executor } from '../../db/database.js'
import { accountRepo, accountNumberKey } from '../../financial-data/accounts/index.js'
import { sandboxBankOf, type PaymentInstruction, type SandboxBank } from '../../financial-data/sandbox/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId, paymentIdOfEndToEndId } from '../../shared/ids.js'
import { readPaymentFile, type PaymentFile, type PaymentFileInformation, type PaymentFileTransaction } from '../bank-side/index.js'
import { answerMessageId, reportVersionOf, statusReportFile, type TransactionAnswer } from './answer-files.js'
import { simulatedBankRepo, type UntakenFile } from './simulated-bank.repo.js'

const ACKNOWLEDGED = { ACCEPTED: 'ACCP', PENDING_AT_BANK: 'PDNG', FAILED: 'RJCT' } as const

export interface Intake {
  taken: number
  failures: { fileId: string; error: unknown }[]
}

/** The scheme the bank books by, from the payment information's local instrument. */
function schemeOf(information: PaymentFileInformation): string {
  if (information.method === 'DD') return information.localInstrument === 'B2B' ? 'SDD_B2B' : 'SDD_CORE'
  return information.localInstrument === 'INST' ? 'SCT_INST' : 'SCT'
}

function instructionOf(organizationId: string, accountId: string, information: PaymentFileInformation, transaction: PaymentFileTransaction): PaymentInstruction {
  const { counterparty, mandate } = transaction
  return {
    // The bank keys its instructions by Kassa's payment id, which the end-to-end id is; another sender's gets one of its own.
    paymentId: paymentIdOfEndToEndId(transaction.endToEndId) ?? newId(),
    paymentType: information.method === 'TRF' ? 'CREDIT_TRANSFER' : 'DIRECT_DEBIT',
    organizationId,
    accountId,
    amount: transaction.amount.value,
    currency: transaction.amount.currency,
    executionDate: information.requestedDate,
    counterparty: { name: counterparty.name ?? '', iban: counterparty.iban ?? '', ...(counterparty.bic ? { bic: counterparty.bic } : {}) },
    ...(transaction.unstructuredRemittance ? { reference: transaction.unstructuredRemittance } : {}),
    endToEndId: transaction.endToEndId,
    ...(mandate ? { mandateReference: mandate.id, ...(mandate.signatureDate ? { mandateSignatureDate: mandate.signatureDate } : {}) } : {}),
    ...(information.sequenceType === 'FRST' || information.sequenceType === 'RCUR' ? { sequenceType: information.sequenceType } : {}),
    scheme: schemeOf(information),
  }
}

/**
 * Hands every transaction of the file to the sandbox bank, in the caller's transaction, and answers the file with
 * one pain.002: each transaction accepted (ACCP), waiting for its date (PDNG) or rejected (RJCT with the bank's
 * reason, e.g. AM04, or AC04 for the scripted amounts ending in .04). A payment information of an account the bank
 * does not hold on this connection is rejected whole (AC01).
 */
async function takeFile(trx: Executor, bank: SandboxBank, file: UntakenFile, parsed: PaymentFile): Promise<void> {
  const accounts = await accountRepo.byNumber(trx, file.organization_id)
  const answers: TransactionAnswer[] = []
  for (const information of parsed.paymentInformations) {
    const [account] = accounts.get(accountNumberKey(information.ownAccount.iban)) ?? []
    const held = account !== undefined && (await accountRepo.connectionIdOf(trx, account.id)) === file.connection_id && (await bank.holds(trx, account.id))
    for (const transaction of information.transactions) {
      const base = { paymentInformationId: information.paymentInformationId, endToEndId: transaction.endToEndId }
      if (!held) {
        answers.push({ ...base, status: 'RJCT', reason: { code: 'AC01', additionalInformation: `No account ${information.ownAccount.iban} on this channel` } })
        continue
      }
      const acknowledgement = await bank.submit(trx, instructionOf(file.organization_id, account.id, information, transaction))
      const status = ACKNOWLEDGED[acknowledgement.status as keyof typeof ACKNOWLEDGED] ?? 'ACCP'
      const reason = acknowledgement.reason ? { code: acknowledgement.reason.code, additionalInformation: acknowledgement.reason.description } : undefined
      answers.push({ ...base, status, ...(reason ? { reason } : {}) })
    }
  }
  await simulatedBankRepo.insertAnswer(trx, {
    id: newId(),
    organization_id: file.organization_id,
    connection_id: file.connection_id,
    message_type: reportVersionOf(parsed.messageType),
    content: statusReportFile(answerMessageId('S'), { messageId: parsed.messageId, messageType: parsed.messageType }, answers),
    created: nowIso(),
    delivered: null,
  })
}

/**
 * The simulated bank's channel, each pass of the payment worker: it reads every new file of the connections whose
 * other side it is — from the outboxDir, where Kassa wrote it, or from Kassa's store when the connection has none —
 * before a transaction, then takes it in one: the intake recorded (a file is taken once, whatever runs at the same
 * time), its instructions submitted, its pain.002 kept to deliver (delivery.ts).
 */
export async function takeFiles(database: Database, bank: SandboxBank = sandboxBankOf(database)): Promise<Intake> {
  const intake: Intake = { taken: 0, failures: [] }
  for (const file of await simulatedBankRepo.untakenFiles(database.db)) {
    try {
      const xml = file.outbox_dir && file.status === 'WRITTEN' ? await readFile(join(file.outbox_dir, `${file.message_id}.xml`), 'utf8') : file.content
      const parsed = readPaymentFile(xml)
      const taken = await database.transaction(async (trx) => {
        if (!(await simulatedBankRepo.take(trx, file, nowIso()))) return false
        await takeFile(trx, bank, file, parsed)
        return true
      })
      if (taken) intake.taken += 1
    } catch (error) {
      intake.failures.push({ fileId: file.id, error })
    }
  }
  return intake
}
