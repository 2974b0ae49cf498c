import type { CompiledQuery, QueryResult } from 'kysely'
import type { Executor } from '../../db/database.js'
import type { CounterpartiesTable, ExternalAccountsTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { runTogether } from '../../db/prepared-query.js'
import { accountRepo, type PaymentAccount } from '../../financial-data/accounts/index.js'
import { ApiError, invalidField } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import type { CommandContext } from '../../shared/command-context.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import { amountFromInput } from '../../shared/money.js'
import { counterpartyRepo } from '../counterparties/counterparty.repo.js'
import { externalAccountRepo } from '../external-accounts/index.js'
import type { BankToday } from '../lifecycle/bank-date.js'
import type { Payment } from '../lifecycle/payment.js'
import { insertPayment, readWithOwnAccount, type PaymentDraft } from '../lifecycle/payment-creation.js'
import { counterpartyHolder, externalAccountSnapshot } from '../lifecycle/payment-parties.js'
import type { AccountHolder, AccountSnapshot } from '../lifecycle/payment.schemas.js'
import { checkExecutionDate, checkScheme } from './credit-transfer.rules.js'
import type { CreateCreditTransfer } from './credit-transfer.schemas.js'

export function ownAccountSnapshot(account: PaymentAccount): AccountSnapshot {
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

export interface ResolvedCounterpartyAccount {
  snapshot: AccountSnapshot
  holder: AccountHolder
  externalAccountId: string
  counterpartyId: string
}

/** The two reads of resolveExternalAccount, to run with others (runTogether); counterpartyAccountOf reads their answers. */
export function externalAccountStatements(trx: Executor, actor: Actor, id: string) {
  return [externalAccountRepo.lockLiveStatement(trx, actor.organizationId, id), counterpartyRepo.ofExternalAccountStatement(trx, actor.organizationId, id)] as const
}

/** @throws ApiError (400 naming `field`) unless a live external account of a live counterparty was found. */
export function counterpartyAccountOf(external: ExternalAccountsTable | undefined, counterparty: CounterpartiesTable | undefined, field: string): ResolvedCounterpartyAccount {
  if (!external) throw invalidField(field, 'is not an external account of this organization')
  if (!counterparty || counterparty.deleted_at) throw invalidField(field, 'belongs to a deleted counterparty')
  return {
    snapshot: externalAccountSnapshot(external),
    holder: counterpartyHolder(counterparty),
    externalAccountId: external.id,
    counterpartyId: counterparty.id,
  }
}

/**
 * A live external account of a live counterparty of this organization, locked until the transaction ends so
 * that it is not deleted while a payment or mandate is made to it. @throws ApiError (400 naming `field`).
 */
export async function resolveExternalAccount(trx: Executor, actor: Actor, id: string, field: string): Promise<ResolvedCounterpartyAccount> {
  const [external, counterparty] = await runTogether(trx, externalAccountStatements(trx, actor, id))
  return counterpartyAccountOf(external.rows[0], counterparty.rows[0], field)
}

interface Destination {
  snapshot: AccountSnapshot
  holder: AccountHolder
  externalAccountId: string | null
  counterpartyId: string | null
}

/**
 * What a credit transfer is checked against, read together (readWithOwnAccount: its source account, the organization,
 * the approval plan's reads and the source bank's date) with its destination — an external account, locked, with its
 * counterparty, or another own account. `destination` throws the destination's 400 when called, so the errors keep
 * the order of the checks.
 */
async function readParties(trx: Executor, actor: Actor, input: CreateCreditTransfer, bankToday: BankToday) {
  const read = await readWithOwnAccount(trx, bankToday, actor.organizationId, input.source.id, destinationStatements(trx, actor, input))
  return { ...read, destination: () => destinationOf(input, read.holder, read.parties) }
}

/** The destination's reads: an external account, locked, with its counterparty; or another own account. */
function destinationStatements(trx: Executor, actor: Actor, input: CreateCreditTransfer): readonly CompiledQuery[] {
  const { type, id } = input.destination
  return type === 'EXTERNAL_ACCOUNT' ? externalAccountStatements(trx, actor, id) : [accountRepo.paymentAccountStatement(trx, actor.organizationId, id)]
}

/** The destination from destinationStatements' answers. @throws ApiError invalid_request (400 naming destination.id). */
function destinationOf(input: CreateCreditTransfer, sourceHolder: AccountHolder, answers: readonly QueryResult<unknown>[]): Destination {
  if (input.destination.type === 'EXTERNAL_ACCOUNT') {
    const [external, counterparty] = answers as [QueryResult<ExternalAccountsTable>, QueryResult<CounterpartiesTable>]
    return counterpartyAccountOf(external.rows[0], counterparty.rows[0], 'destination.id')
  }
  const found = (answers[0] as QueryResult<PaymentAccount>).rows[0]
  if (!found) throw invalidField('destination.id', 'is not an account of this organization')
  if (found.id === input.source.id) throw invalidField('destination.id', 'must differ from the source account')
  return { snapshot: ownAccountSnapshot(found), holder: sourceHolder, externalAccountId: null, counterpartyId: null }
}

/**
 * A credit transfer validated as a bank would, ready to be stored: the rules of POST /payments/v2/credit-transfers,
 * also applied to every record of a credit transfer batch (credit-transfer-batches/), so there is one copy of them.
 * Runs in the caller's transaction (it locks the destination external account until it ends).
 * @throws ApiError invalid_request (400 naming the field).
 */
export async function draftCreditTransfer(trx: Executor, actor: Actor, input: CreateCreditTransfer, bankToday: BankToday): Promise<PaymentDraft> {
  const money = amountFromInput(input.amount, 'amount')
  if (money.value <= 0) throw invalidField('amount.value', 'must be positive')
  const parties = await readParties(trx, actor, input, bankToday)
  const { account: source } = parties
  if (!source) throw invalidField('source.id', 'is not an account of this organization')
  if (money.currency !== source.currency) {
    throw invalidField('amount.currency', `must be the source account's currency ${source.currency}`)
  }
  checkExecutionDate(input.date, await parties.today())
  const destination = parties.destination()
  const sourceSnapshot = ownAccountSnapshot(source)
  checkScheme({
    scheme: input.scheme,
    currency: money.currency,
    amount: money.value,
    reference: input.reference,
    sourceIdentifiers: sourceSnapshot.identifiers,
    destinationIdentifiers: destination.snapshot.identifiers,
  })
  return {
    kind: 'CREDIT_TRANSFER',
    externalId: input.externalId,
    amount: money.value,
    currency: money.currency,
    scheme: input.scheme,
    date: input.date,
    reference: input.reference,
    accountId: source.id,
    externalAccountId: destination.externalAccountId,
    counterpartyId: destination.counterpartyId,
    mandate: null,
    source: sourceSnapshot,
    sourceHolder: parties.holder,
    destination: destination.snapshot,
    destinationHolder: destination.holder,
    metadata: input.metadata,
    creationAnswers: parties.creationAnswers,
  }
}

/** The 409 of an externalId another credit transfer of the organization has. */
export function externalIdTaken(): ApiError {
  return new ApiError('external_id_taken', 'The externalId is already used by a credit transfer of this organization')
}

/**
 * `bankToday` dates the payment from the source account's bank; `onApproved` is told when a payment
 * becomes APPROVED, so submission to the bank can start at once.
 */
export function createCreditTransferService(bankToday: BankToday, onApproved: () => void) {
  return {
    /**
     * Validates as a bank would (draftCreditTransfer), then stores the payment with its approval steps.
     * @throws ApiError invalid_request (400 naming the field), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateCreditTransfer): Promise<Payment> {
      try {
        const payment = await ctx.transaction(async (trx) => insertPayment(trx, ctx.actor, await draftCreditTransfer(trx, ctx.actor, input, bankToday), ctx.asSent))
        if (payment.status === 'APPROVED') onApproved()
        return payment
      } catch (error) {
        if (isUniqueViolation(error)) throw externalIdTaken()
        throw error
      }
    },
  }
}
