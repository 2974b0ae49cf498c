import { Type, type Static } from 'typebox'
import { Bic, MarketCode, ResourceId } from '../../shared/common.schemas.js'
import { AmountInput } from '../../shared/money.js'
import { LocalDate } from '../transactions/transaction.schemas.js'
import { MAX_ADVANCE_DAYS } from './sandbox-bank.js'

/** The sandbox bank's clock of the organization. */
export const SandboxClock = Type.Object(
  {
    organizationId: ResourceId,
    today: Type.String({ format: 'date', description: "The sandbox bank's business date: what it books on and executes" }),
    daysAhead: Type.Integer({ description: 'How many days the bank is ahead of the real (UTC) date' }),
    openInstructions: Type.Integer({ minimum: 0, description: 'Payment instructions waiting for their date or not yet executed' }),
  },
  { $id: 'SandboxClock' },
)
export type SandboxClock = Static<typeof SandboxClock>

export const AdvanceClockRequest = Type.Object(
  {
    days: Type.Optional(
      Type.Integer({ minimum: 0, maximum: MAX_ADVANCE_DAYS, description: 'Move the clock this many days (0 processes what is due today). Default 1.' }),
    ),
    to: Type.Optional(Type.String({ format: 'date', description: 'Move the clock to this date (not before today)' })),
  },
  {
    additionalProperties: false,
    description: 'Give days or to, not both; an empty body advances one day.',
    examples: [{ days: 1 }],
  },
)
export type AdvanceClockRequest = Static<typeof AdvanceClockRequest>

export const PaymentStatusChange = Type.Object({
  instructionId: ResourceId,
  paymentId: Type.String(),
  paymentType: Type.Enum(['CREDIT_TRANSFER', 'DIRECT_DEBIT']),
  status: Type.Enum(['PENDING_AT_BANK', 'ACCEPTED', 'EXECUTED', 'FAILED', 'RETURNED']),
  reason: Type.Optional(Type.Object({ code: Type.String({ description: 'ISO 20022 reason, e.g. AM04, AC04' }), description: Type.String() })),
  bankDate: LocalDate,
  endToEndId: Type.String(),
  transactionId: Type.Optional(Type.String({ format: 'uuid', description: 'The entry this change booked' })),
})

export const AdvanceClockResponse = Type.Object(
  {
    organizationId: ResourceId,
    previousToday: LocalDate,
    today: LocalDate,
    statusChanges: Type.Array(PaymentStatusChange, { description: 'What happened to payment instructions on the way, in order' }),
  },
  { $id: 'SandboxClockAdvanced' },
)
export type AdvanceClockResponse = Static<typeof AdvanceClockResponse>

export const InjectTransactionRequest = Type.Object(
  {
    accountId: ResourceId,
    amount: AmountInput,
    date: Type.Optional(Type.String({ format: 'date', description: "Booking date: the bank's today by default; not after it, not before the account's opening date" })),
    valueDate: Type.Optional(Type.String({ format: 'date', description: 'The booking date by default' })),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: 'Shown on the transaction; required unless remittanceInformation is given' })),
    remittanceInformation: Type.Optional(
      Type.Object(
        { type: Type.Enum(['UNSTRUCTURED', 'STRUCTURED']), value: Type.String({ minLength: 1, maxLength: 140 }) },
        { additionalProperties: false, description: "As the reference's POST /v1/testbank/transactions: becomes the reference (and the description if none is given)" },
      ),
    ),
    reference: Type.Optional(Type.String({ minLength: 1, maxLength: 140 })),
    endToEndId: Type.Optional(Type.String({ minLength: 1, maxLength: 35 })),
    counterparty: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 140 }),
          partyType: Type.Optional(Type.Enum(['INDIVIDUAL', 'COMPANY'])),
          iban: Type.Optional(Type.String({ minLength: 5, maxLength: 42 })),
          bic: Type.Optional(Bic),
          market: Type.Optional(MarketCode),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    description: 'A booked entry for a sandbox account: positive amount is money in, negative money out.',
    examples: [
      {
        accountId: '0197a3c2-5e10-7b2a-9c41-2f6d8e0a1b3c',
        amount: { currency: 'EUR', value: 125000 },
        description: 'Payment of invoice 2025-0042',
        counterparty: { name: 'Acme GmbH', partyType: 'COMPANY', iban: 'DE89370400440532013000' },
      },
    ],
  },
)
export type InjectTransactionRequest = Static<typeof InjectTransactionRequest>
