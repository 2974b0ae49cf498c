import { createHash } from 'node:crypto'
import { parseDecimal } from '../../shared/money.js'
import type { BookedEntry } from '../bookings/booking.service.js'
import type { PendingEntry } from '../bookings/pending-entries.js'
import type { TransactionCounterparty } from '../transactions/transaction.schemas.js'
import type { CamtEntry, CamtParty, CamtTransactionDetails } from './camt-model.js'
import { isDate, type EntryDates } from './statement-rules.js'

/**
 * A booked camt entry → the transactions the bookings interface stores.
 *
 * Entry references — what makes a second import of the same statement book nothing new:
 * - AcctSvcrRef, verbatim: the account servicer's own unique reference of the entry (placeholders such
 *   as NONREF count as none).
 * - else NtryRef, qualified by a hash of the entry's content ("NtryRef/0004/9f3c…"): many banks number
 *   NtryRef 1…n per statement, so alone it would make day 2's entry "1" a duplicate of day 1's.
 * - else a hash of the entry's content plus its occurrence among identical entries of the statement
 *   ("sha256/9f3c…/2"): two equal fees on one day stay two transactions, and the same entry reported
 *   again (the statement re-sent, or an intraday camt.052 followed by the camt.053) keeps its reference.
 *   The content hashed is what identifies the payment — amount, direction, dates, bank transaction code,
 *   end-to-end ids, remittance and counterparty accounts — not the bank's narrative, which banks reword.
 *
 * Batched entries (one Ntry, several TxDtls): split into one transaction per TxDtls when every one of
 * them carries its own amount in the account's currency and together they add up to the entry's
 * amount exactly — each payment of a batch then reconciles to its own transaction (end-to-end id,
 * counterparty, remittance), while the ledger still sums to the bank's figure. Parts are referenced
 * "<entry reference>/<n>". Otherwise (salary runs reported without amounts, amounts in another
 * currency, parts that do not add up) the entry is booked whole with the bank's amount: splitting
 * would invent figures the bank did not report.
 */

export function normalizeIban(iban: string): string {
  return iban.replace(/\s+/g, '').toUpperCase()
}

function joined(lines: string[], separator: string): string | undefined {
  const text = lines.map((line) => line.trim()).filter(Boolean).join(separator)
  return text === '' ? undefined : text
}

function counterpartyOf(party: CamtParty | undefined): TransactionCounterparty | undefined {
  if (!party) return undefined
  const iban = party.iban !== undefined ? normalizeIban(party.iban) : undefined
  const market = iban !== undefined && /^[A-Z]{2}/.test(iban) ? iban.slice(0, 2) : undefined
  const hasAccount = iban !== undefined || party.otherAccountId !== undefined || party.bic !== undefined
  if (party.name === undefined && !hasAccount) return undefined
  return {
    name: party.name,
    account: hasAccount
      ? { market, identifiers: market !== undefined ? [{ type: 'IBAN', market, number: iban! }] : [], bic: party.bic, rawIdentifier: party.otherAccountId }
      : undefined,
  }
}

/** The other party: the debtor of money in, the creditor of money out — of the original direction for a reversal. */
function otherParty(details: CamtTransactionDetails, incoming: boolean, reversal: boolean): TransactionCounterparty | undefined {
  return counterpartyOf(incoming !== reversal ? details.debtor : details.creditor)
}

function bankCodeText(entry: CamtEntry): string | undefined {
  const code = entry.bankTransactionCode
  if (!code) return undefined
  return [code.domain, code.family, code.subfamily].filter(Boolean).join('/') || code.proprietary?.code
}

type DetailFields = Pick<BookedEntry, 'reference' | 'endToEndId' | 'mandateReference' | 'counterparty' | 'returnReason'>

/** Fields of one booked transaction that come from transaction details. */
function detailFields(details: CamtTransactionDetails, incoming: boolean, reversal: boolean): DetailFields {
  const returnReason = details.returnReason
  return {
    reference: joined(details.unstructured, ' ') ?? joined(details.structuredReferences, ', '),
    endToEndId: details.endToEndId,
    mandateReference: details.mandateId,
    counterparty: otherParty(details, incoming, reversal),
    returnReason: returnReason ? { code: returnReason.code, description: returnReason.additionalInfo || undefined } : undefined,
  }
}

/** One booked transaction: every field in one place, absent ones undefined (JSON and the rows leave them out). */
function bookedEntry(entry: CamtEntry, dates: EntryDates, entryReference: string, amount: number, description: string, fields: DetailFields): BookedEntry {
  return {
    entryReference,
    amount,
    date: dates.date,
    valueDate: dates.valueDate,
    dateSource: dates.dateSource,
    description,
    reference: fields.reference,
    endToEndId: fields.endToEndId,
    mandateReference: fields.mandateReference,
    counterparty: fields.counterparty,
    bankTransactionCode: entry.bankTransactionCode,
    returnReason: fields.returnReason,
  }
}

function describe(...candidates: Array<string | undefined>): string {
  return candidates.find((candidate) => candidate !== undefined && candidate.trim() !== '')?.trim() ?? ''
}

/**
 * What identifies an entry for its hashed reference (see the module comment). Its dates are those the bank
 * wrote: a date taken for a missing BookgDt is the statement's, and the same entry reported in another
 * statement must keep its reference.
 */
function contentHash(entry: CamtEntry, amount: number): string {
  const code = entry.bankTransactionCode
  const content = [
    amount,
    entry.bookingDate,
    entry.valueDate ?? null,
    entry.reversal,
    code ? [code.domain, code.family, code.subfamily, code.proprietary?.code] : null,
    entry.details.map((details) => [
      details.endToEndId ?? null,
      details.amount?.value ?? null,
      details.unstructured,
      details.structuredReferences,
      details.debtor?.iban ?? details.debtor?.otherAccountId ?? null,
      details.creditor?.iban ?? details.creditor?.otherAccountId ?? null,
    ]),
  ]
  return createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 32)
}

/** Signed minor units of a (non-negative) camt amount and its CdtDbtInd; undefined when either is wrong. */
function signedAmount(
  amount: CamtEntry['amount'],
  creditDebit: string | undefined,
  currency: string,
  exponent: number,
): number | undefined {
  if (!amount || amount.currency !== currency || amount.value.startsWith('-')) return undefined
  if (creditDebit !== 'CRDT' && creditDebit !== 'DBIT') return undefined
  const value = parseDecimal(amount.value, exponent)
  if (value === undefined) return undefined
  return creditDebit === 'DBIT' ? -value : value
}

/**
 * Placeholders banks write where they have no reference (MT940's NONREF survives conversion to camt):
 * taken as a reference, they would make every later entry a "duplicate" of the first.
 */
const NO_REFERENCE = new Set(['NONREF', 'NOTPROVIDED', 'NONE', 'N/A'])

function realReference(value: string | undefined): string | undefined {
  return value !== undefined && !NO_REFERENCE.has(value.toUpperCase()) ? value : undefined
}

/** The entry reference of a booked entry (see the module comment); `occurrences` counts hashes within one statement. */
export function entryReferenceOf(entry: CamtEntry, amount: number, occurrences: Map<string, number>): string {
  const accountServicerReference = realReference(entry.accountServicerReference)
  if (accountServicerReference !== undefined) return accountServicerReference
  const hash = contentHash(entry, amount)
  const entryReference = realReference(entry.entryReference)
  if (entryReference !== undefined) return `NtryRef/${entryReference}/${hash}`
  const occurrence = (occurrences.get(hash) ?? 0) + 1
  occurrences.set(hash, occurrence)
  return `sha256/${hash}/${occurrence}`
}

/** The transactions one booked entry becomes: itself, or one per transaction detail (see the module comment). */
export function bookedEntriesOf(entry: CamtEntry, amount: number, entryReference: string, dates: EntryDates, currency: string, exponent: number): BookedEntry[] {
  const incoming = amount > 0 || (amount === 0 && entry.creditDebit === 'CRDT')
  const details = entry.details
  if (details.length > 1) {
    const parts = details.map((part) => signedAmount(part.amount, part.creditDebit ?? entry.creditDebit, currency, exponent))
    if (parts.every((part) => part !== undefined) && parts.reduce((sum, part) => sum + part, 0) === amount) {
      return details.map((part, index) => {
        const fields = detailFields(part, parts[index]! > 0 || (parts[index] === 0 && incoming), entry.reversal)
        const description = describe(part.additionalInfo, joined(part.unstructured, ' '), entry.additionalInfo, fields.reference, fields.counterparty?.name, bankCodeText(entry))
        return bookedEntry(entry, dates, `${entryReference}/${index + 1}`, parts[index]!, description, fields)
      })
    }
    const description = describe(entry.additionalInfo, `Batch of ${details.length} transactions`)
    return [bookedEntry(entry, dates, entryReference, amount, description, { reference: entry.batchPaymentInformationId })]
  }
  // A batch booked without its transactions' details is known by its payment information (NtryDtls/Btch/PmtInfId).
  const fields = details[0] ? detailFields(details[0], incoming, entry.reversal) : { reference: entry.batchPaymentInformationId }
  const description = describe(
    entry.additionalInfo,
    details[0]?.additionalInfo,
    details[0] ? joined(details[0].unstructured, ' ') : undefined,
    fields.reference,
    fields.counterparty?.name,
    bankCodeText(entry),
  )
  return [bookedEntry(entry, dates, entryReference, amount, description, fields)]
}

/**
 * The pending transactions a PDNG entry becomes (bookings/pending-entries.ts). Only an entry that carries the
 * bank's own reference (AcctSvcrRef) is one: its booking will carry the same, and that is what ends it — without
 * one nothing could. Split as its booking would be (bookedEntriesOf), so the parts meet their bookings' parts.
 * Its date is provisional: BookgDt, else ValDt, else the statement's date. None when its amount or dates are
 * unusable: a pending entry informs, and never fails an import.
 */
export function pendingEntriesOf(entry: CamtEntry, statementDate: string | undefined, currency: string, exponent: number): PendingEntry[] {
  const reference = realReference(entry.accountServicerReference)
  const amount = signedAmount(entry.amount, entry.creditDebit, currency, exponent)
  if (entry.bookingDate !== undefined && !isDate(entry.bookingDate)) return []
  if (entry.valueDate !== undefined && !isDate(entry.valueDate)) return []
  const date = entry.bookingDate ?? entry.valueDate ?? statementDate
  if (reference === undefined || amount === undefined || date === undefined) return []
  const dates = { date, valueDate: entry.valueDate ?? date }
  return bookedEntriesOf(entry, amount, reference, dates, currency, exponent).map(({ dateSource: _dateSource, ...pending }) => pending)
}
