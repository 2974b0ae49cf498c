import { Type, type Static } from 'typebox'
import { ExternalId, Metadata, ResourceId } from '../../shared/common.schemas.js'
import { AmountInput } from '../../shared/money.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { PaymentDate, PaymentFields } from '../lifecycle/payment.schemas.js'
import { PAYMENT_STATUSES } from '../lifecycle/payment-status.js'

/** Schemes Kassa supports for credit transfers; others in the reference's list are refused by name. */
export const CREDIT_TRANSFER_SCHEMES = ['SCT', 'SCT_INST'] as const

/** reference §2.7 */
export const CreditTransfer = Type.Object(PaymentFields)
export type CreditTransfer = Static<typeof CreditTransfer>

export const CreateCreditTransfer = Type.Object(
  {
    amount: AmountInput,
    date: PaymentDate,
    scheme: Type.String({ minLength: 1, maxLength: 32, description: `Supported: ${CREDIT_TRANSFER_SCHEMES.join(', ')}` }),
    source: Type.Object({ type: Type.Literal('ACCOUNT'), id: ResourceId }, { additionalProperties: false }),
    destination: Type.Object(
      { type: Type.Enum(['EXTERNAL_ACCOUNT', 'ACCOUNT']), id: ResourceId },
      { additionalProperties: false },
    ),
    reference: Type.String({ minLength: 1, maxLength: 140 }),
    externalId: Type.Optional(ExternalId),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false },
)
export type CreateCreditTransfer = Static<typeof CreateCreditTransfer>

export const CreditTransferListQuery = Type.Object({
  ...ListQueryProperties,
  accountId: Type.Optional(ResourceId),
  counterpartyId: Type.Optional(ResourceId),
  status: Type.Optional(Type.Enum([...PAYMENT_STATUSES])),
  externalId: Type.Optional(ExternalId),
  'date[gte]': Type.Optional(PaymentDate),
  'date[lte]': Type.Optional(PaymentDate),
})
export type CreditTransferListQuery = Static<typeof CreditTransferListQuery>
