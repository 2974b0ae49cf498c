import { Type, type Static } from 'typebox'
import { CurrencyCode, ExternalId, Metadata, ResourceId } from '../../shared/common.schemas.js'
import { AmountInput, MinorUnitsBound } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { ApprovableByFilter, MandateSnapshot, NewPaymentDate, PaymentDate, PaymentFields } from '../lifecycle/payment.schemas.js'
import { PAYMENT_STATUSES } from '../lifecycle/payment-status.js'
import { DIRECT_DEBIT_SCHEMES } from '../mandates/mandate.schemas.js'

/** reference §2.8: roles swapped from a credit transfer — the counterparty pays into an own account. */
export const DirectDebit = Type.Object({
  ...PaymentFields,
  mandate: Type.Optional(MandateSnapshot),
})
export type DirectDebit = Static<typeof DirectDebit>

export const CreateDirectDebit = Type.Object(
  {
    amount: AmountInput,
    date: NewPaymentDate,
    scheme: Type.Enum([...DIRECT_DEBIT_SCHEMES]),
    source: Type.Object({ type: Type.Literal('EXTERNAL_ACCOUNT'), id: ResourceId }, { additionalProperties: false }),
    destination: Type.Object({ type: Type.Literal('ACCOUNT'), id: ResourceId }, { additionalProperties: false }),
    reference: Type.String({ minLength: 1, maxLength: 140 }),
    mandateId: Type.Optional(
      Type.String({ format: 'uuid', description: "The mandate to collect under; by default the source account's only usable mandate of the scheme" }),
    ),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  {
    additionalProperties: false,
    examples: [
      {
        amount: { currency: 'EUR', stringValue: '49.00' },
        date: '2025-07-01',
        scheme: 'SDD_CORE',
        source: { type: 'EXTERNAL_ACCOUNT', id: '0197a3c4-0d2e-7f61-8a53-6b7c9d1e2f40' },
        destination: { type: 'ACCOUNT', id: '0197a3c2-5e10-7b2a-9c41-2f6d8e0a1b3c' },
        reference: 'Subscription July 2025',
        mandateId: '0197a3c8-1a2b-7c3d-8e4f-901a2b3c4d5e',
      },
    ],
  },
)
export type CreateDirectDebit = Static<typeof CreateDirectDebit>

export const DirectDebitListQuery = Type.Object({
  ...ListQueryProperties,
  accountId: Type.Optional(ResourceId),
  counterpartyId: Type.Optional(ResourceId),
  status: Type.Optional(Type.Enum([...PAYMENT_STATUSES])),
  scheme: Type.Optional(Type.Enum([...DIRECT_DEBIT_SCHEMES])),
  externalId: Type.Optional(ExternalId),
  'date[gte]': Type.Optional(PaymentDate),
  'date[lte]': Type.Optional(PaymentDate),
  currency: Type.Optional(CurrencyCode),
  'amount[gte]': Type.Optional(MinorUnitsBound('Minor units', 0)),
  'amount[lte]': Type.Optional(MinorUnitsBound('Minor units', 0)),
  approvableBy: ApprovableByFilter,
})
export type DirectDebitListQuery = Static<typeof DirectDebitListQuery>
