import { Type, type Static } from 'typebox'
import { CurrencyCode, ExternalId, Metadata, ResourceId } from '../../shared/common.schemas.js'
import { AmountInput, MinorUnitsBound } from '../../shared/money.js'
import { JsonPatchBody } from '../../http/json-patch.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { ApprovableByFilter, NewPaymentDate, PaymentDate, PaymentFields } from '../lifecycle/payment.schemas.js'
import { PAYMENT_STATUSES } from '../lifecycle/payment-status.js'

/** Schemes Kassa supports for credit transfers; others in the reference's list are refused by name. */
export const CREDIT_TRANSFER_SCHEMES = ['SCT', 'SCT_INST'] as const

/** reference §2.7 */
export const CreditTransfer = Type.Object(PaymentFields)
export type CreditTransfer = Static<typeof CreditTransfer>

export const CreateCreditTransfer = Type.Object(
  {
    amount: AmountInput,
    date: NewPaymentDate,
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
  {
    additionalProperties: false,
    examples: [
      {
        amount: { currency: 'EUR', value: 125000 },
        date: '2025-07-01',
        scheme: 'SCT',
        source: { type: 'ACCOUNT', id: '0197a3c2-5e10-7b2a-9c41-2f6d8e0a1b3c' },
        destination: { type: 'EXTERNAL_ACCOUNT', id: '0197a3c4-0d2e-7f61-8a53-6b7c9d1e2f40' },
        reference: 'Invoice 2025-0042',
        externalId: 'erp-payment-7731',
      },
    ],
  },
)
export type CreateCreditTransfer = Static<typeof CreateCreditTransfer>

/** The PATCH body: a JSON Patch within CREDIT_TRANSFER_PATCH_RULES (credit-transfer.date.ts), the requested date. */
export const CreditTransferPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'replace', path: '/date', value: '2025-07-15' }]],
}

export const CreditTransferListQuery = Type.Object({
  ...ListQueryProperties,
  accountId: Type.Optional(ResourceId),
  counterpartyId: Type.Optional(ResourceId),
  status: Type.Optional(Type.Enum([...PAYMENT_STATUSES])),
  externalId: Type.Optional(ExternalId),
  'date[gte]': Type.Optional(PaymentDate),
  'date[lte]': Type.Optional(PaymentDate),
  currency: Type.Optional(CurrencyCode),
  'amount[gte]': Type.Optional(MinorUnitsBound('Minor units', 0)),
  'amount[lte]': Type.Optional(MinorUnitsBound('Minor units', 0)),
  approvableBy: ApprovableByFilter,
  batchId: Type.Optional(ResourceId),
})
export type CreditTransferListQuery = Static<typeof CreditTransferListQuery>
