import type { Database, Executor } from '../../db/database.js'
import type { AccountsTable, PaymentApprovalStepsTable, PaymentsTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { listEvents, recordEvent, SYSTEM_ORIGINATOR, type Event } from '../../events/index.js'
import { accountRepo } from '../../financial-data/accounts/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { pageOf, pageRequest, type ListEnvelopeOf } from '../../http/pagination.js'
import type { ResourceRef } from '../../http/resource-ref.js'
import type { Actor } from '../../iam/actor.js'
import { ownerRoleId } from '../../iam/roles/owner-role.js'
import { nowIso } from '../../shared/clock.js'
import type { CommandContext } from '../../shared/command-context.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { newId } from '../../shared/ids.js'
import { amountFromInput } from '../../shared/money.js'
import { approvalChainRepo } from '../approvals/approval-chain.repo.js'
import { plannedSteps } from '../approvals/approval-rules.js'
import { counterpartyRepo } from '../counterparties/counterparty.repo.js'
import { externalAccountRepo } from '../external-accounts/index.js'
import { findPayment, PAYMENT_ENTITY_TYPE, serializePayment, transitionPayment, type Payment } from '../lifecycle/payment.js'
import { paymentRepo, toPaymentFields } from '../lifecycle/payment.repo.js'
import type { AccountHolder, AccountSnapshot } from '../lifecycle/payment.schemas.js'
import { checkExecutionDate, checkScheme, todayUtc } from './credit-transfer.rules.js'
import type { CreateCreditTransfer, CreditTransferListQuery } from './credit-transfer.schemas.js'

const KIND = 'CREDIT_TRANSFER'
const ENTITY_TYPE = PAYMENT_ENTITY_TYPE[KIND]

function ownAccountSnapshot(account: AccountsTable): AccountSnapshot {
  return {
    type: 'ACCOUNT',
    id: account.id,
    organizationId: account.organization_id,
    market: account.market,
    currency: account.currency,
    identifiers: JSON.parse(account.identifiers) as AccountIdentifier[],
    ...(account.bic !== null ? { bic: account.bic } : {}),
  }
}

async function organizationHolder(db: Executor, organizationId: string): Promise<AccountHolder> {
  const organization = await db.selectFrom('organizations').select('name').where('id', '=', organizationId).executeTakeFirstOrThrow()
  return { type: 'ENTITY', id: organizationId, legalName: organization.name }
}

interface Destination {
  snapshot: AccountSnapshot
  holder: AccountHolder
  externalAccountId: string | null
  counterpartyId: string | null
}

/** @throws ApiError (400, field destination.id) when it is not a live account of this organization. */
async function resolveDestination(db: Executor, actor: Actor, input: CreateCreditTransfer, source: AccountsTable): Promise<Destination> {
  const { type, id } = input.destination
  if (type === 'ACCOUNT') {
    const account = await accountRepo.find(db, actor.organizationId, { id })
    if (!account) throw invalidField('destination.id', 'is not an account of this organization')
    if (account.id === source.id) throw invalidField('destination.id', 'must differ from the source account')
    return { snapshot: ownAccountSnapshot(account), holder: await organizationHolder(db, actor.organizationId), externalAccountId: null, counterpartyId: null }
  }
  const external = await externalAccountRepo.find(db, actor.organizationId, { id })
  if (!external || external.deleted_at) throw invalidField('destination.id', 'is not an external account of this organization')
  const counterparty = await counterpartyRepo.find(db, actor.organizationId, { id: external.counterparty_id })
  if (!counterparty || counterparty.deleted_at) throw invalidField('destination.id', 'belongs to a deleted counterparty')
  return {
    snapshot: {
      type: 'EXTERNAL_ACCOUNT',
      id: external.id,
      organizationId: external.organization_id,
      market: external.market,
      identifiers: JSON.parse(external.identifiers) as AccountIdentifier[],
    },
    holder: {
      type: 'COUNTERPARTY',
      id: counterparty.id,
      legalName: counterparty.legal_name,
      ...(counterparty.party_type !== null ? { partyType: counterparty.party_type as 'INDIVIDUAL' | 'COMPANY' } : {}),
    },
    externalAccountId: external.id,
    counterpartyId: counterparty.id,
  }
}

export function createCreditTransferService(database: Database, onApproved: () => void) {
  return {
    /**
     * Validates as a bank would, attaches the approval steps of every matching chain (or the Owner's),
     * and approves at once when every step is automatic.
     * @throws ApiError invalid_request (400 naming the field), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateCreditTransfer): Promise<Payment> {
      const { actor } = ctx
      const money = amountFromInput(input.amount, 'amount')
      if (money.value <= 0) throw invalidField('amount.value', 'must be positive')
      checkExecutionDate(input.date, todayUtc())
      try {
        const payment = await ctx.transaction(async (trx) => {
          const source = await accountRepo.find(trx, actor.organizationId, { id: input.source.id })
          if (!source) throw invalidField('source.id', 'is not an account of this organization')
          if (money.currency !== source.currency) {
            throw invalidField('amount.currency', `must be the source account's currency ${source.currency}`)
          }
          const destination = await resolveDestination(trx, actor, input, source)
          const sourceSnapshot = ownAccountSnapshot(source)
          checkScheme({
            scheme: input.scheme,
            currency: money.currency,
            amount: money.value,
            reference: input.reference,
            sourceIdentifiers: sourceSnapshot.identifiers,
            destinationIdentifiers: destination.snapshot.identifiers,
          })
          const chains = await approvalChainRepo.listLive(trx, actor.organizationId)
          const plan = plannedSteps(
            chains,
            { kind: KIND, accountId: source.id, currency: money.currency, amount: money.value, creatorRoleId: actor.roleId },
            await ownerRoleId(trx, actor.organizationId),
          )
          const now = nowIso()
          const row: PaymentsTable = {
            id: newId(),
            organization_id: actor.organizationId,
            kind: KIND,
            external_id: input.externalId ?? null,
            status: 'CREATED',
            status_reason: null,
            amount: money.value,
            currency: money.currency,
            scheme: input.scheme,
            date: input.date,
            reference: input.reference,
            account_id: source.id,
            external_account_id: destination.externalAccountId,
            counterparty_id: destination.counterpartyId,
            mandate_id: null,
            mandate: null,
            source: JSON.stringify(sourceSnapshot),
            source_holder: JSON.stringify(await organizationHolder(trx, actor.organizationId)),
            destination: JSON.stringify(destination.snapshot),
            destination_holder: JSON.stringify(destination.holder),
            creator_user_id: actor.userId,
            connection_instruction_id: null,
            attached_transactions: '[]',
            metadata: JSON.stringify(input.metadata ?? {}),
            version: 1,
            created: now,
            updated: now,
          }
          const steps: PaymentApprovalStepsTable[] = plan.map((step, position) => ({
            id: newId(),
            payment_id: row.id,
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
          await paymentRepo.insert(trx, row, steps)
          const created = await serializePayment(trx, row)
          await recordEvent(trx, { organizationId: actor.organizationId, entityType: ENTITY_TYPE, entityId: row.id, type: 'CREATED', name: 'CREATED', originator: actor.userId, entity: created })
          if (plan.every((step) => step.autoApproved)) {
            return transitionPayment(trx, row, 'APPROVED', { originator: SYSTEM_ORIGINATOR, message: 'Automatically approved' })
          }
          return created
        })
        if (payment.status === 'APPROVED') onApproved()
        return payment
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError('external_id_taken', 'The externalId is already used by a credit transfer of this organization')
        throw error
      }
    },

    /** @throws ApiError not_found (404). */
    async get(actor: Actor, ref: ResourceRef): Promise<Payment> {
      return serializePayment(database.db, await findPayment(database.db, actor.organizationId, KIND, ref))
    },

    /** Newest execution date first. @throws ApiError invalid_request / invalid_token (400). */
    async list(actor: Actor, query: CreditTransferListQuery): Promise<ListEnvelopeOf<Payment>> {
      const filters = {
        accountId: query.accountId,
        counterpartyId: query.counterpartyId,
        status: query.status,
        externalId: query.externalId,
        dateFrom: query['date[gte]'],
        dateTo: query['date[lte]'],
      }
      if (filters.dateFrom && filters.dateTo && filters.dateFrom > filters.dateTo) throw invalidField('date[gte]', 'must not be after date[lte]')
      const page = pageRequest(query, ENTITY_TYPE, filters, 2)
      const rows = await paymentRepo.list(database.db, actor.organizationId, KIND, filters, page)
      const steps = await paymentRepo.steps(database.db, rows.slice(0, page.limit).map((row) => row.id))
      return pageOf(rows, page, (row) => [row.date, row.id], (row) => toPaymentFields(row, steps.filter((step) => step.payment_id === row.id)))
    },

    /** The payment's history, oldest first. @throws ApiError not_found (404), invalid_token (400). */
    async events(actor: Actor, ref: ResourceRef, query: { limit?: number; token?: string }): Promise<ListEnvelopeOf<Event>> {
      const row = await findPayment(database.db, actor.organizationId, KIND, ref)
      const page = pageRequest(query, `${ENTITY_TYPE}/${row.id}/events`, {}, 1)
      const events = await listEvents(database.db, actor.organizationId, row.id, page)
      return pageOf(events, page, (event) => [event.id], (event) => event)
    },
  }
}
