import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import { preparedQuery, runTogether, type Results } from '../../db/prepared-query.js'
import { setupRead } from '../../db/setup-reads.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import type { PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import { firstEventStatements, SYSTEM_ORIGINATOR } from '../../events/index.js'
import type { Actor } from '../../iam/actor.js'
import { ownerRoleIdOf, ownerRoleStatement } from '../../iam/roles/owner-role.js'
import { liveWebhooksOf, liveWebhooksStatement, type LiveWebhook } from '../../webhooks/index.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { approvalChainOf, approvalChainRepo } from '../approvals/approval-chain.repo.js'
import type { BankToday } from './bank-date.js'
import { plannedSteps, type PlannedStep } from '../approvals/approval-rules.js'
import { movePayment, PAYMENT_ENTITY_TYPE, toPayment, type Payment } from './payment.js'
import { documentColumns, paymentRepo, type PaymentDocuments, type PaymentKind } from './payment.repo.js'
import type { AccountHolder, AccountSnapshot, BatchDetails, MandateSnapshot } from './payment.schemas.js'

/** A validated payment of either kind, ready to be stored. */
export interface PaymentDraft {
  kind: PaymentKind
  externalId?: string
  amount: number
  currency: string
  scheme: string
  date: string
  reference: string
  /** The own account: source of a credit transfer, destination of a direct debit. */
  accountId: string
  externalAccountId: string | null
  counterpartyId: string | null
  mandate: MandateSnapshot | null
  source: AccountSnapshot
  sourceHolder: AccountHolder
  destination: AccountSnapshot
  destinationHolder: AccountHolder
  metadata?: Record<string, string>
  /** The credit transfer batch the payment is made from (reference CreditTransfer.batch). */
  batch?: BatchDetails
  /** The answers of creationStatements when the draft was read with them; insertPayment reads them otherwise. */
  creationAnswers?: CreationAnswers
}

/**
 * What a new payment's approval steps and CREATED event's deliveries are planned from — the organization's live
 * approval chains, its Owner role, its live webhooks — as statements a draft runs with its own reads (runTogether:
 * one round trip on PostgreSQL for both) and hands over as `creationAnswers`. Setup reads (db/setup-reads.ts): on
 * SQLite answered from memory while none of them changed.
 */
function creationStatements(trx: Executor, organizationId: string) {
  return [
    setupRead(organizationId, approvalChainRepo.listLiveStatement(trx, organizationId)),
    setupRead(organizationId, ownerRoleStatement(trx, organizationId)),
    setupRead(organizationId, liveWebhooksStatement(trx, organizationId)),
  ] as const
}

export type CreationAnswers = Results<ReturnType<typeof creationStatements>>

/**
 * What every payment's create is checked against, read with `parties` — the kind's own reads, answered in their order
 * — in one runTogether (on PostgreSQL one round trip): its own account (a credit transfer's source, a direct debit's
 * destination) and the organization holding it, what its approval steps and event deliveries are planned from
 * (creationStatements, handed to insertPayment as the draft's creationAnswers), and the business date of the own
 * account's bank, whose answers `today` reads only when asked: once the account is known to be the organization's.
 */
export async function readWithOwnAccount<const Parties extends readonly CompiledQuery[]>(
  trx: Executor,
  bankToday: BankToday,
  organizationId: string,
  accountId: string,
  parties: Parties,
) {
  const own = [accountRepo.paymentAccountStatement(trx, organizationId, accountId), organizationHolderStatement(trx, organizationId)] as const
  const creation = creationStatements(trx, organizationId)
  const date = bankToday.reads(trx, { organizationId, accountId })
  const answers = await runTogether(trx, [...own, ...creation, ...date.statements, ...parties])
  const [account, organization] = answers
  const dateAt = own.length + creation.length
  const partiesAt = dateAt + date.statements.length
  return {
    account: account.rows[0],
    holder: organizationHolderOf(organizationId, organization.rows),
    creationAnswers: answers.slice(own.length, dateAt) as unknown as CreationAnswers,
    today: () => date.today(answers.slice(dateAt, partiesAt)),
    parties: answers.slice(partiesAt) as unknown as Results<Parties>,
  }
}

/**
 * The approval steps of a new payment (none for one approved with its batch) and the live webhooks its CREATED event
 * goes to: from the draft's creationAnswers, or read together here (runTogether: one round trip on PostgreSQL).
 */
async function planAndWebhooks(trx: Executor, actor: Actor, draft: PaymentDraft, approvedWithBatch: boolean): Promise<{ plan: PlannedStep[]; webhooks: LiveWebhook[] }> {
  const { organizationId } = actor
  if (approvedWithBatch) {
    const [webhooks] = draft.creationAnswers ? [draft.creationAnswers[2]] : await runTogether(trx, [liveWebhooksStatement(trx, organizationId)])
    return { plan: [], webhooks: liveWebhooksOf(webhooks.rows) }
  }
  const [chains, owner, webhooks] = draft.creationAnswers ?? (await runTogether(trx, creationStatements(trx, organizationId)))
  const plan = plannedSteps(
    chains.rows.map(approvalChainOf),
    { kind: draft.kind, accountId: draft.accountId, currency: draft.currency, amount: draft.amount, creatorRoleId: actor.roleId },
    ownerRoleIdOf(owner.rows),
  )
  return { plan, webhooks: liveWebhooksOf(webhooks.rows) }
}

/**
 * Stores a new payment with the steps of every matching approval chain (or the Owner's), writes
 * its CREATED event, and approves it at once (FULLY_APPROVED by the system) when every step is
 * automatic. A payment of a batch of treatment BATCH gets no steps of its own: it waits in CREATED
 * for its batch's approval (credit-transfer-batches/). Runs in the caller's transaction; a duplicate
 * externalId surfaces as a unique violation. `asSent` (the request's CommandContext) serializes the new payment as
 * its response: the CREATED event stores the same JSON.
 */
export async function insertPayment(trx: Executor, actor: Actor, draft: PaymentDraft, asSent?: (payment: Payment) => string): Promise<Payment> {
  const approvedWithBatch = draft.batch?.treatment === 'BATCH'
  const { plan, webhooks } = await planAndWebhooks(trx, actor, draft, approvedWithBatch)
  const now = nowIso()
  const documents: PaymentDocuments = {
    source: draft.source,
    sourceHolder: draft.sourceHolder,
    destination: draft.destination,
    destinationHolder: draft.destinationHolder,
    metadata: draft.metadata ?? {},
  }
  const row: PaymentsTable = {
    id: newId(),
    organization_id: actor.organizationId,
    kind: draft.kind,
    external_id: draft.externalId ?? null,
    status: 'CREATED',
    status_reason: null,
    amount: draft.amount,
    currency: draft.currency,
    scheme: draft.scheme,
    date: draft.date,
    reference: draft.reference,
    account_id: draft.accountId,
    external_account_id: draft.externalAccountId,
    counterparty_id: draft.counterpartyId,
    mandate_id: draft.mandate?.id ?? null,
    mandate: draft.mandate ? JSON.stringify(draft.mandate) : null,
    ...documentColumns(documents),
    creator_user_id: actor.userId,
    connection_instruction_id: null,
    attached_transactions: '[]',
    batch_id: draft.batch?.id ?? null,
    batch_treatment: draft.batch?.treatment ?? null,
    version: 1,
    created: now,
    updated: now,
  }
  const steps: PaymentApprovalStepsTable[] = stepRowsOf(plan, now).map((step) => ({ ...step, payment_id: row.id }))
  // Nobody has decided a step of a new payment yet.
  const undecided = steps.map((step) => ({ ...step, approver: null }))
  // Its API shape from the documents just stored, not parsed back from the row (issue 14).
  const created = toPayment(row, undecided, documents)
  // The payment, its steps, its CREATED event and the event's webhook deliveries: written together, in this order; on
  // PostgreSQL not waited for, their failure reported by the transaction's next statement (answeredWithNext).
  await runTogether(trx, [
    ...paymentRepo.insertStatements(trx, row, steps),
    ...firstEventStatements(
      trx,
      {
        organizationId: actor.organizationId,
        entityType: PAYMENT_ENTITY_TYPE[draft.kind],
        entityId: row.id,
        type: 'CREATED',
        name: 'CREATED',
        originator: actor.userId,
        entity: created,
        entityJson: asSent?.(created),
      },
      webhooks,
    ),
  ])
  if (!approvedWithBatch && plan.every((step) => step.autoApproved)) {
    return (await movePayment(trx, row, 'APPROVED', { originator: SYSTEM_ORIGINATOR, message: 'Automatically approved' }, undecided)).payment
  }
  return created
}

/** Planned steps as stored, automatic ones decided `now`: a payment's, or a batch's (credit-transfer-batches/). */
export function stepRowsOf(plan: PlannedStep[], now: string): Array<Omit<PaymentApprovalStepsTable, 'payment_id'>> {
  return plan.map((step, position) => ({
    id: newId(),
    approval_chain_id: step.approvalChainId,
    position,
    required_role_ids: JSON.stringify(step.requiredRoleIds),
    required_user_ids: JSON.stringify(step.requiredUserIds),
    allow_creator_approval: step.allowCreatorApproval ? 1 : 0,
    auto_approved: step.autoApproved ? 1 : 0,
    status: step.autoApproved ? 'APPROVED' : 'PENDING',
    approver_user_id: null,
    updated: step.autoApproved ? now : null,
  }))
}

const organizationName = preparedQuery((db, parameter: (name: 'id') => string) => db.selectFrom('organizations').select('name').where('id', '=', parameter('id')))

/** The organization as the holder of its own accounts: a statement to run with others (runTogether), a setup read; organizationHolderOf reads its rows. */
function organizationHolderStatement(db: Executor, organizationId: string): CompiledQuery<{ name: string }> {
  return setupRead(organizationId, organizationName.bind(db, { id: organizationId }))
}

/** @throws Error when the organization is not there (an actor's organization always is). */
function organizationHolderOf(organizationId: string, rows: readonly { name: string }[]): AccountHolder {
  if (!rows[0]) throw new Error(`No organization ${organizationId}`)
  return { type: 'ENTITY', id: organizationId, legalName: rows[0].name }
}
