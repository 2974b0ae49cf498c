import type { CompiledQuery } from 'kysely'
import type { Executor } from '../../db/database.js'
import type { MandatesTable } from '../../db/schema.js'
import { isUniqueViolation } from '../../db/errors.js'
import { ApiError, invalidField } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import type { CommandContext } from '../../shared/command-context.js'
import { amountFromInput } from '../../shared/money.js'
import { checkExecutionDate, checkSepa } from '../credit-transfers/credit-transfer.rules.js'
import { counterpartyAccountOf, externalAccountStatements, ownAccountSnapshot } from '../credit-transfers/credit-transfer.service.js'
import type { BankToday } from '../lifecycle/bank-date.js'
import type { Payment } from '../lifecycle/payment.js'
import { insertPayment, readWithOwnAccount } from '../lifecycle/payment-creation.js'
import { mandateRepo } from '../mandates/index.js'
import type { CreateDirectDebit } from './direct-debit.schemas.js'

/** The mandate to collect under: the one named, or the source account's only usable one of the scheme. */
function mandateStatement(db: Executor, organizationId: string, input: CreateDirectDebit): CompiledQuery<MandatesTable> {
  return input.mandateId ? mandateRepo.findStatement(db, organizationId, { id: input.mandateId }) : mandateRepo.usableStatement(db, input.source.id, input.scheme)
}

/** The mandate from mandateStatement's rows. @throws ApiError (400) */
function mandateOf(input: CreateDirectDebit, rows: readonly MandatesTable[]): MandatesTable {
  if (input.mandateId) {
    const mandate = rows[0]
    if (!mandate) throw invalidField('mandateId', 'is not a mandate of this organization')
    if (mandate.status === 'CANCELLED') throw invalidField('mandateId', 'is cancelled')
    if (mandate.external_account_id !== input.source.id) throw invalidField('mandateId', 'is for another external account than source.id')
    if (mandate.scheme !== input.scheme) throw invalidField('mandateId', `is a ${mandate.scheme} mandate, not ${input.scheme}`)
    return mandate
  }
  if (rows.length === 0) throw invalidField('source.id', `has no usable ${input.scheme} mandate; register one at /payments/v2/mandates`)
  if (rows.length > 1) throw invalidField('mandateId', `is required: the source account has ${rows.length} usable ${input.scheme} mandates`)
  return rows[0]!
}

/**
 * What a direct debit is checked against, read together (readWithOwnAccount: its destination account, the
 * organization, the approval plan's reads and the destination bank's date) with the source external account, locked,
 * with its counterparty, and the mandate; `source` and `mandate` throw their 400s when called, in the checks' order.
 */
async function readParties(trx: Executor, actor: Actor, input: CreateDirectDebit, bankToday: BankToday) {
  const parties = [...externalAccountStatements(trx, actor, input.source.id), mandateStatement(trx, actor.organizationId, input)] as const
  const read = await readWithOwnAccount(trx, bankToday, actor.organizationId, input.destination.id, parties)
  const [external, counterparty, mandate] = read.parties
  return {
    ...read,
    source: () => counterpartyAccountOf(external.rows[0], counterparty.rows[0], 'source.id'),
    mandate: () => mandateOf(input, mandate.rows),
  }
}

/**
 * `bankToday` dates the collection from the bank of the own account it is collected into; `onApproved`
 * is told when a payment becomes APPROVED, so submission to the bank can start at once.
 */
export function createDirectDebitService(bankToday: BankToday, onApproved: () => void) {
  return {
    /**
     * A collection from a counterparty's account into an own account, under a mandate; same validation,
     * approvals and lifecycle as a credit transfer.
     * @throws ApiError invalid_request (400 naming the field), external_id_taken (409).
     */
    async create(ctx: CommandContext, input: CreateDirectDebit): Promise<Payment> {
      const { actor } = ctx
      const money = amountFromInput(input.amount, 'amount')
      if (money.value <= 0) throw invalidField('amount.value', 'must be positive')
      try {
        const payment = await ctx.transaction(async (trx) => {
          const parties = await readParties(trx, actor, input, bankToday)
          const { account: destination } = parties
          if (!destination) throw invalidField('destination.id', 'is not an account of this organization')
          if (money.currency !== destination.currency) {
            throw invalidField('amount.currency', `must be the destination account's currency ${destination.currency}`)
          }
          checkExecutionDate(input.date, await parties.today())
          const source = parties.source()
          const mandate = parties.mandate()
          const destinationSnapshot = ownAccountSnapshot(destination)
          checkSepa({
            scheme: input.scheme,
            currency: money.currency,
            amount: money.value,
            reference: input.reference,
            sourceIdentifiers: source.snapshot.identifiers,
            destinationIdentifiers: destinationSnapshot.identifiers,
          })
          return insertPayment(trx, actor, {
            kind: 'DIRECT_DEBIT',
            externalId: input.externalId,
            amount: money.value,
            currency: money.currency,
            scheme: input.scheme,
            date: input.date,
            reference: input.reference,
            accountId: destination.id,
            externalAccountId: source.externalAccountId,
            counterpartyId: source.counterpartyId,
            mandate: {
              id: mandate.id,
              creditorReference: mandate.creditor_reference,
              mandateReference: mandate.mandate_reference,
              // Every collection is recurrent (SEPA FRST, then RCUR): none is announced as the last.
              finalCollection: false,
              signatureDate: mandate.signature_date,
              version: mandate.version,
            },
            source: source.snapshot,
            sourceHolder: source.holder,
            destination: destinationSnapshot,
            destinationHolder: parties.holder,
            metadata: input.metadata,
            creationAnswers: parties.creationAnswers,
          }, ctx.asSent)
        })
        if (payment.status === 'APPROVED') onApproved()
        return payment
      } catch (error) {
        if (isUniqueViolation(error)) throw new ApiError('external_id_taken', 'The externalId is already used by a direct debit of this organization')
        throw error
      }
    },
  }
}
