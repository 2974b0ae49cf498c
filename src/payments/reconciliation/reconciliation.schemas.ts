import { Type, type Static } from 'typebox'
import { ResourceId } from '../../shared/common.schemas.js'

/** The body of `:attach` and `:detach`: the payment, by kind and Kassa id (reference §2.3 attachedTransactables). */
export const ReconciliationBody = Type.Object(
  {
    type: Type.Enum(['CREDIT_TRANSFER', 'DIRECT_DEBIT'], { description: 'The kind of payment' }),
    id: ResourceId,
  },
  { additionalProperties: false, examples: [{ type: 'CREDIT_TRANSFER', id: '0197a3c6-7b1f-7c02-b3d4-5e6f7a8b9c0d' }] },
)
export type ReconciliationBody = Static<typeof ReconciliationBody>
