import { Type, type Static } from 'typebox'
import { ExternalId, Metadata, ResourceId } from '../../shared/common.schemas.js'
import { AmountInput } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { MandateSnapshot, PaymentDate, PaymentFields } from '../lifecycle/payment.schemas.js'
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
    date: PaymentDate,
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
  { additionalProperties: false },
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
})
export type DirectDebitListQuery = Static<typeof DirectDebitListQuery>
