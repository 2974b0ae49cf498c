import type { Database, Executor } from '../../db/database.js'
import type { SandboxInstructionsTable } from '../../db/schema.js'
import { ApiError, invalidField } from '../../http/errors.js'
import { nowIso } from '../../shared/clock.js'
import { newId } from '../../shared/ids.js'
import { bookEntries } from '../bookings/booking.service.js'
import type { AccountIdentifier } from '../../shared/common.schemas.js'
import type { Transaction } from '../transactions/transaction.schemas.js'
import { BTC } from './bank-codes.js'
import {
  BANK_ORIGINATOR,
  BankConnectorError,
  fileAnswer,
  paymentStatusListener,
  type BankConnector,
  type PaymentInstruction,
  type PaymentStatusReport,
} from './bank-connector.js'
import { addDays, dateOf, daysBetween, isLocalDate, maxDate, minDate } from '../../shared/calendar.js'
import { bankReference, executionEntry, internalCreditEntry, returnEntry } from './instruction-entries.js'
import { decideSubmission, dueDays, planDay, type Funds, type InstructionFacts } from './instruction-rules.js'
import { reportLedgerBalances } from './ledger-reports.js'
import { sandboxRepo, type LedgerAccountRow } from './sandbox.repo.js'
import { todayOf } from './sandbox-today.js'
import {
  MAX_ADVANCE_DAYS,
  SANDBOX_CONNECTOR,
  type AdvanceTarget,
  type ProcessDueResult,
  type SandboxBank,
  type SandboxBankOptions,
  type StepResult,
} from './sandbox-bank.contract.js'
import { factsOf, reportOf } from './instruction-views.js'
import { showPendingDebit } from './pending-debits.js'

export * from './sandbox-bank.contract.js'


function noSandboxBank(): ApiError {
  return new ApiError('not_found', 'This organization has no sandbox bank')
}

/** The date a step moves the clock to. @throws ApiError invalid_request (400). */
function targetDate(today: string, target: AdvanceTarget): string {
  if ('days' in target) {
    if (!Number.isInteger(target.days) || target.days < 0 || target.days > MAX_ADVANCE_DAYS) {
      throw invalidField('days', `must be a whole number of days from 0 to ${MAX_ADVANCE_DAYS}`)
    }
    return addDays(today, target.days)
  }
  const date = 'to' in target ? target.to : target.atLeast
  if (!isLocalDate(date)) throw invalidField('to', 'must be a date, yyyy-mm-dd')
  if ('atLeast' in target) return maxDate(today, date)
  if (date < today) throw invalidField('to', `must not be before the bank's today ${today}: the clock does not go back`)
  if (daysBetween(today, date) > MAX_ADVANCE_DAYS) throw invalidField('to', `must be at most ${MAX_ADVANCE_DAYS} days after the bank's today ${today}`)
  return date
}

async function fundsOf(trx: Executor, organizationId: string, accounts: readonly LedgerAccountRow[]): Promise<Map<string, Funds>> {
  const [sums, reservations] = await Promise.all([sandboxRepo.bookedSums(trx, organizationId), sandboxRepo.reservations(trx, organizationId)])
  return new Map(
    accounts.map((account) => [
      account.id,
      { currency: account.currency, booked: account.opening_balance + (sums.get(account.id) ?? 0), reserved: reservations.get(account.id) ?? 0 },
    ]),
  )
}

export function createSandboxBank(database: Database, options: SandboxBankOptions = {}): SandboxBank {
  const listener = () => options.listener ?? paymentStatusListener()

  async function advanceIn(trx: Executor, organizationId: string, target: AdvanceTarget): Promise<StepResult> {
    const bank = await sandboxRepo.lockBank(trx, organizationId)
    if (!bank) throw noSandboxBank()
    const from = bank.today
    const to = targetDate(from, target)
    const accounts = await sandboxRepo.ledgerAccounts(trx, organizationId)
    const accountById = new Map(accounts.map((account) => [account.id, account]))
    const accountByIban = new Map(
      accounts.flatMap((account) =>
        (JSON.parse(account.identifiers) as AccountIdentifier[]).filter((identifier) => identifier.type === 'IBAN').map((identifier) => [identifier.number, account.id] as const),
      ),
    )
    const open = await sandboxRepo.listOpen(trx, organizationId)
    const rows = new Map(open.map((row) => [row.id, row]))
    const facts = open.map(factsOf)
    const factById = new Map(facts.map((fact) => [fact.id, fact]))
    const funds = await fundsOf(trx, organizationId, accounts)
    const reports: PaymentStatusReport[] = []

    for (const day of dueDays(from, to, facts)) {
      for (const step of planDay(day, facts, funds, accountByIban)) {
        const row = rows.get(step.instructionId)!
        const account = accountById.get(row.account_id)!
        let transaction: Transaction | undefined
        if (step.booking) {
          const entry = step.booking.kind === 'EXECUTION' ? executionEntry(row, day, row.scheme ?? undefined) : returnEntry(row, day, step.reasonCode ?? 'AC04')
          ;[transaction] = await bookEntries(trx, account, [entry], BANK_ORIGINATOR)
        }
        if (step.credit) {
          const sourceIban = [...accountByIban].find(([, id]) => id === account.id)?.[0] ?? ''
          const entry = internalCreditEntry(row, day, { name: account.name, iban: sourceIban })
          await bookEntries(trx, accountById.get(step.credit.accountId)!, [entry], BANK_ORIGINATOR)
        }
        const changes: Partial<SandboxInstructionsTable> = {
          status: step.status,
          reason_code: step.reasonCode ?? null,
          ...(step.status === 'EXECUTED' ? { booked_date: day, transaction_id: transaction?.id ?? null } : {}),
          ...(step.status === 'RETURNED' ? { return_transaction_id: transaction?.id ?? null } : {}),
        }
        await sandboxRepo.updateInstruction(trx, row.id, changes, nowIso())
        Object.assign(row, changes)
        await showPendingDebit(trx, account, row)
        factById.get(row.id)!.status = step.status
        const report = reportOf(row, day, transaction)
        reports.push(report)
        // An account banked through files hears of it by the bank's next file (connectivity/simulated-bank).
        if (!(await fileAnswer()?.(trx, report))) await listener()?.onPaymentStatus(trx, report)
      }
    }
    if (to !== from) await sandboxRepo.setToday(trx, organizationId, to, nowIso())
    if (to !== from || reports.length > 0) {
      for (const account of accounts) await reportLedgerBalances(trx, account, from, to, funds.get(account.id)!.reserved)
    }
    return { organizationId, previousToday: from, today: to, reports }
  }

  const bank: SandboxBank = {
    name: SANDBOX_CONNECTOR,

    async today(db, organizationId) {
      return todayOf(organizationId, await sandboxRepo.findBank(db, organizationId))
    },

    async holds(db, accountId) {
      return (await sandboxRepo.findAccount(db, accountId)) !== undefined
    },

    async submit(trx, instruction: PaymentInstruction) {
      const held = await sandboxRepo.findAccount(trx, instruction.accountId)
      if (!held || held.organization_id !== instruction.organizationId) {
        throw new BankConnectorError(`Account ${instruction.accountId} of organization ${instruction.organizationId} is not held at the sandbox bank`)
      }
      const bankRow = await sandboxRepo.lockBank(trx, instruction.organizationId)
      if (!bankRow) throw new BankConnectorError(`Organization ${instruction.organizationId} has no sandbox bank`)
      const existing = await sandboxRepo.findInstructionByPayment(trx, instruction.organizationId, instruction.paymentId)
      if (existing) return reportOf(existing, bankRow.today)

      const accounts = await sandboxRepo.ledgerAccounts(trx, instruction.organizationId)
      const account = accounts.find((candidate) => candidate.id === instruction.accountId)!
      const funds = (await fundsOf(trx, instruction.organizationId, [account])).get(account.id)!
      const id = newId()
      const facts: InstructionFacts = {
        id,
        accountId: account.id,
        paymentType: instruction.paymentType,
        amount: instruction.amount,
        currency: instruction.currency,
        executionDate: instruction.executionDate,
        counterpartyIban: instruction.counterparty.iban.replace(/\s+/g, '').toUpperCase(),
        counterpartyName: instruction.counterparty.name,
        status: 'PENDING_AT_BANK',
      }
      const reservedBefore = funds.reserved
      const decision = decideSubmission(facts, funds, bankRow.today)
      const now = nowIso()
      const row: SandboxInstructionsTable = {
        id,
        organization_id: instruction.organizationId,
        account_id: account.id,
        payment_type: instruction.paymentType,
        payment_id: instruction.paymentId,
        amount: instruction.amount,
        currency: instruction.currency,
        execution_date: instruction.executionDate,
        counterparty_name: instruction.counterparty.name,
        counterparty_iban: facts.counterpartyIban,
        counterparty_bic: instruction.counterparty.bic ?? null,
        reference: instruction.reference ?? null,
        end_to_end_id: instruction.endToEndId,
        mandate_reference: instruction.mandateReference ?? null,
        scheme: instruction.scheme ?? null,
        status: decision.status,
        reason_code: decision.reasonCode ?? null,
        booked_date: null,
        transaction_id: null,
        return_transaction_id: null,
        version: 1,
        created: now,
        updated: now,
      }
      await sandboxRepo.insertInstruction(trx, row)
      await showPendingDebit(trx, account, row)
      if (funds.reserved !== reservedBefore) await reportLedgerBalances(trx, account, bankRow.today, bankRow.today, funds.reserved)
      return reportOf(row, bankRow.today)
    },

    async find(db, organizationId, paymentId) {
      const row = await sandboxRepo.findInstructionByPayment(db, organizationId, paymentId)
      if (!row) return undefined
      return reportOf(row, row.booked_date ?? dateOf(new Date(row.updated)))
    },

    async clock(db, organizationId, now = new Date()) {
      const row = await sandboxRepo.findBank(db, organizationId)
      if (!row) return undefined
      const open = await sandboxRepo.listOpen(db, organizationId)
      return { organizationId, today: row.today, daysAhead: daysBetween(dateOf(now), row.today), openInstructions: open.length }
    },

    advanceIn,

    advance: (organizationId, target) => database.transaction((trx) => advanceIn(trx, organizationId, target)),

    async processDue(now = new Date()) {
      const today = dateOf(now)
      const results: StepResult[] = []
      const errors: ProcessDueResult['errors'] = []
      for (const organizationId of await sandboxRepo.organizationsWithWork(database.db, today)) {
        try {
          results.push(await database.transaction((trx) => advanceIn(trx, organizationId, { atLeast: today })))
        } catch (error) {
          errors.push({ organizationId, error })
        }
      }
      return { results, errors }
    },

    async inject(trx, organizationId, injection) {
      const bankRow = await sandboxRepo.lockBank(trx, organizationId)
      if (!bankRow) throw noSandboxBank()
      const accounts = await sandboxRepo.ledgerAccounts(trx, organizationId)
      const account = accounts.find((candidate) => candidate.id === injection.accountId)
      if (!account) throw new ApiError('not_found', `No account ${injection.accountId} at this organization's sandbox bank`)
      if (injection.currency !== account.currency) {
        throw invalidField('amount.currency', `must be the account's currency ${account.currency}`)
      }
      if (!Number.isSafeInteger(injection.amount) || injection.amount === 0) throw invalidField('amount', 'must not be zero')
      const today = bankRow.today
      const date = injection.date ?? today
      if (date > today) throw invalidField('date', `must not be after the bank's today ${today}; advance the clock first`)
      if (date < account.opening_date) throw invalidField('date', `must not be before the account's opening date ${account.opening_date}`)
      const valueDate = injection.valueDate ?? date
      const [transaction] = await bookEntries(
        trx,
        account,
        [
          {
            entryReference: bankReference('I', newId()),
            amount: injection.amount,
            date,
            valueDate,
            description: injection.description,
            ...(injection.reference ? { reference: injection.reference } : {}),
            ...(injection.endToEndId ? { endToEndId: injection.endToEndId } : {}),
            ...(injection.counterparty ? { counterparty: injection.counterparty } : {}),
            bankTransactionCode: injection.bankTransactionCode ?? (injection.amount > 0 ? BTC.miscellaneousCredit : BTC.miscellaneousDebit),
          },
        ],
        BANK_ORIGINATOR,
      )
      const reserved = (await sandboxRepo.reservations(trx, organizationId)).get(account.id) ?? 0
      await reportLedgerBalances(trx, account, minDate(date, today), today, reserved)
      return transaction!
    },
  }
  return bank
}

const banks = new WeakMap<Database, SandboxBank>()

/** The sandbox bank of a database, reporting to the process-wide listener. */
export function sandboxBankOf(database: Database): SandboxBank {
  let bank = banks.get(database)
  if (!bank) {
    bank = createSandboxBank(database)
    banks.set(database, bank)
  }
  return bank
}

/** The sandbox bank, for the accounts it holds; undefined for others (connectivity's bankConnectorFor asks it last). */
export async function sandboxConnectorFor(database: Database, db: Executor, accountId: string): Promise<BankConnector | undefined> {
  const bank = sandboxBankOf(database)
  return (await bank.holds(db, accountId)) ? bank : undefined
}
