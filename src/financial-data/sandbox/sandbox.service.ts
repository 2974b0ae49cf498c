import type { Database, Executor } from '../../db/database.js'
import { ApiError, invalidField } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import { normalizeIdentifiers } from '../../shared/account-identifiers.js'
import type { CommandContext } from '../../shared/command-context.js'
import { amountFromInput } from '../../shared/money.js'
import { isUuid } from '../../shared/ids.js'
import type { Transaction, TransactionCounterparty } from '../transactions/transaction.schemas.js'
import { sandboxBankOf, type AdvanceTarget, type SandboxBank } from './sandbox-bank.js'
import type { AdvanceClockRequest, AdvanceClockResponse, InjectTransactionRequest, SandboxClock } from './sandbox.schemas.js'

/**
 * The sandbox controls serve sandbox organizations only.
 * @throws ApiError forbidden (403) for an organization that is not a sandbox, not_found (404) for none at all.
 */
export async function requireSandboxOrganization(db: Executor, organizationId: string): Promise<void> {
  const organization = await db.selectFrom('organizations').select('environment').where('id', '=', organizationId).executeTakeFirst()
  if (!organization) throw new ApiError('not_found', `No organization ${organizationId}`)
  if (organization.environment !== 'SANDBOX') {
    throw new ApiError('forbidden', 'This organization is not a sandbox: the sandbox endpoints drive the simulated bank of sandbox organizations only')
  }
}

/**
 * The sandbox endpoints: the organization must be a sandbox (403 otherwise) with a sandbox bank
 * (404 otherwise); the bank does the rest.
 */
export function createSandboxService(database: Database, bank: SandboxBank = sandboxBankOf(database)) {
  const requireSandbox = (db: Executor, actor: Actor) => requireSandboxOrganization(db, actor.organizationId)

  function counterpartyOf(input: InjectTransactionRequest['counterparty']): TransactionCounterparty | undefined {
    if (!input) return undefined
    if (!input.iban) return { name: input.name, ...(input.partyType ? { partyType: input.partyType } : {}) }
    const market = input.market ?? input.iban.replace(/\s+/g, '').slice(0, 2).toUpperCase()
    let identifier
    try {
      ;[identifier] = normalizeIdentifiers([{ market, type: 'IBAN', number: input.iban }], 'counterparty.iban')
    } catch (error) {
      const problem = error instanceof ApiError ? error.details?.[0]?.error : undefined
      throw invalidField('counterparty.iban', problem ?? 'is not a valid IBAN')
    }
    return {
      name: input.name,
      ...(input.partyType ? { partyType: input.partyType } : {}),
      account: { market, identifiers: [{ ...identifier!, market }], ...(input.bic ? { bic: input.bic } : {}) },
    }
  }

  return {
    /** @throws ApiError forbidden (403), not_found (404). */
    async clock(actor: Actor): Promise<SandboxClock> {
      await requireSandbox(database.db, actor)
      const clock = await bank.clock(database.db, actor.organizationId)
      if (!clock) throw new ApiError('not_found', 'This organization has no sandbox bank')
      return clock
    },

    /** @throws ApiError forbidden (403), not_found (404), invalid_request (400: both days and to, a date in the past, too far). */
    async advance(ctx: CommandContext, body: AdvanceClockRequest): Promise<AdvanceClockResponse> {
      if (body.days !== undefined && body.to !== undefined) throw invalidField('to', 'give days or to, not both')
      const target: AdvanceTarget = body.to !== undefined ? { to: body.to } : { days: body.days ?? 1 }
      return ctx.transaction(async (trx) => {
        await requireSandbox(trx, ctx.actor)
        const step = await bank.advanceIn(trx, ctx.actor.organizationId, target)
        return {
          organizationId: step.organizationId,
          previousToday: step.previousToday,
          today: step.today,
          statusChanges: step.reports.map((report) => ({
            instructionId: report.instructionId,
            paymentId: report.paymentId,
            paymentType: report.paymentType,
            status: report.status as AdvanceClockResponse['statusChanges'][number]['status'],
            ...(report.reason ? { reason: report.reason } : {}),
            bankDate: report.bankDate,
            endToEndId: report.endToEndId,
            ...(report.transaction ? { transactionId: report.transaction.id } : {}),
          })),
        }
      })
    },

    /** @throws ApiError forbidden (403), not_found (404: account), invalid_request (400: amount, currency, dates, IBAN). */
    async inject(ctx: CommandContext, body: InjectTransactionRequest): Promise<Transaction> {
      const amount = amountFromInput(body.amount, 'amount')
      if (amount.value === 0) throw invalidField('amount', 'must not be zero: positive is money in, negative money out')
      const description = body.description ?? body.remittanceInformation?.value
      if (!description) throw invalidField('description', 'give a description or remittanceInformation')
      const reference = body.reference ?? body.remittanceInformation?.value
      const counterparty = counterpartyOf(body.counterparty)
      if (!isUuid(body.accountId)) throw invalidField('accountId', 'must be a UUID')
      return ctx.transaction(async (trx) => {
        await requireSandbox(trx, ctx.actor)
        return bank.inject(trx, ctx.actor.organizationId, {
          accountId: body.accountId.toLowerCase(),
          amount: amount.value,
          currency: amount.currency,
          ...(body.date ? { date: body.date } : {}),
          ...(body.valueDate ? { valueDate: body.valueDate } : {}),
          description,
          ...(reference ? { reference } : {}),
          ...(body.endToEndId ? { endToEndId: body.endToEndId } : {}),
          ...(counterparty ? { counterparty } : {}),
        })
      })
    },
  }
}
