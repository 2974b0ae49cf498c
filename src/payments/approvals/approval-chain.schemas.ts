import { Type, type Static, type TSchema } from 'typebox'
import { JsonPatchBody, type PatchRule } from '../../http/json-patch.js'
import { ListQueryProperties } from '../../http/pagination.js'
import { CurrencyCode, Etag, ResourceId, Timestamp, Version } from '../../shared/common.schemas.js'
import { Amount, AmountInput } from '../../shared/money.js'

/** reference §2.13 and §4: approval chains. */

export const MAX_STEPS = 10
const MAX_APPROVERS_PER_STEP = 10
const MAX_IDS_PER_CONDITION = 100

// `type` lets AJV check uniqueItems with a hash instead of comparing every pair (see validation.ts).
const PaymentType = Type.Enum(['CREDIT_TRANSFER', 'DIRECT_DEBIT'], { type: 'string' })

const idSet = (description: string) =>
  Type.Array(ResourceId, { minItems: 1, maxItems: MAX_IDS_PER_CONDITION, uniqueItems: true, description })
const InOrNotIn = (what: string) =>
  Type.Object(
    {
      in: Type.Optional(idSet(`The chain applies only when the ${what} is one of these`)),
      notIn: Type.Optional(idSet(`The chain does not apply when the ${what} is one of these`)),
    },
    { additionalProperties: false, description: 'Give in, notIn or both' },
  )

const TriggerDescription =
  'Every condition given must hold for the chain to apply to a new payment; {} applies to every payment. ' +
  'Amounts are in trigger.currency and are not converted: with an amount condition (or autoApproveBelow) the chain ' +
  'applies only to payments in that currency.'

/** An amount in a request ({currency, value} or {currency, stringValue}) or in a response, with a description. */
const amountIn = (description: string) => Type.Object(AmountInput.properties, { additionalProperties: false, description })
const amountOut = (description: string) => Type.Object(Amount.properties, { description })

const triggerFields = <A extends TSchema>(amount: (description: string) => A) => ({
  paymentTypes: Type.Optional(Type.Array(PaymentType, { minItems: 1, uniqueItems: true })),
  accountIds: Type.Optional(InOrNotIn('own account (source of a credit transfer, destination of a direct debit)')),
  creatorRoleIds: Type.Optional(InOrNotIn("creator's role")),
  currency: Type.Optional(CurrencyCode),
  amountAtLeast: Type.Optional(amount('Applies to payments of at least this amount')),
  amountBelow: Type.Optional(amount('Applies to payments below this amount')),
})

export const ChainTriggerInput = Type.Object(triggerFields(amountIn), { additionalProperties: false, description: TriggerDescription })
export type ChainTriggerInput = Static<typeof ChainTriggerInput>

const approvers = (description: string) => Type.Array(ResourceId, { maxItems: MAX_APPROVERS_PER_STEP, uniqueItems: true, description })

export const ChainStepInput = Type.Object(
  {
    requiredRoleIds: Type.Optional(approvers('A user holding any of these roles may approve the step')),
    requiredUserIds: Type.Optional(approvers('Any of these users may approve the step')),
    allowCreatorApproval: Type.Optional(
      Type.Boolean({ description: "May the payment's creator approve this step? Default false (four eyes)" }),
    ),
  },
  { additionalProperties: false, description: 'Needs at least one role or user' },
)
export type ChainStepInput = Static<typeof ChainStepInput>

const chainFields = {
  name: Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$' }),
  trigger: ChainTriggerInput,
  steps: Type.Array(ChainStepInput, {
    maxItems: MAX_STEPS,
    description: `1 to ${MAX_STEPS} steps, each approved by a different user; none with autoApprove`,
  }),
  autoApprove: Type.Optional(
    Type.Boolean({ description: 'Straight-through processing: matching payments are approved at creation. Default false' }),
  ),
  autoApproveBelow: Type.Optional(
    amountIn('Matching payments below this amount are approved at creation; sets trigger.currency when absent'),
  ),
}

export const CreateApprovalChain = Type.Object(chainFields, {
  additionalProperties: false,
  examples: [
    {
      name: 'Large payments',
      trigger: { paymentTypes: ['CREDIT_TRANSFER'], currency: 'EUR', amountAtLeast: { currency: 'EUR', value: 1000000 } },
      steps: [
        { requiredRoleIds: ['0197a3b0-2c4d-7e5f-9a6b-7c8d9e0f1a2b'] },
        { requiredUserIds: ['0197a3b2-3d4e-7f60-8b7c-9d0e1f2a3b4c'] },
      ],
    },
  ],
})
export type CreateApprovalChain = Static<typeof CreateApprovalChain>

/** The fields PATCH may touch; the patched chain is validated again as on creation. */
export const ApprovalChainEditable = CreateApprovalChain
export type ApprovalChainEditable = CreateApprovalChain

const editablePaths = ['/trigger', '/trigger/*', '/trigger/*/*', '/steps/*', '/steps/*/*', '/autoApprove', '/autoApproveBelow', '/autoApproveBelow/*']

export const APPROVAL_CHAIN_PATCH_RULES: readonly PatchRule[] = [
  { op: 'replace', path: '/name' },
  { op: 'replace', path: '/steps' },
  ...editablePaths.flatMap((path) => (['add', 'replace', 'remove'] as const).map((op) => ({ op, path }))),
]

/** The PATCH body: a JSON Patch within APPROVAL_CHAIN_PATCH_RULES, on the chain as its create request states it. */
export const ApprovalChainPatchBody = {
  ...JsonPatchBody,
  examples: [[{ op: 'replace', path: '/trigger/amountAtLeast', value: { currency: 'EUR', value: 500000 } }]],
}

export const ApprovalChain = Type.Object({
  id: ResourceId,
  organizationId: ResourceId,
  name: Type.String(),
  trigger: Type.Object(triggerFields(amountOut), { description: TriggerDescription }),
  steps: Type.Array(
    Type.Object({
      requiredRoleIds: Type.Array(ResourceId),
      requiredUserIds: Type.Array(ResourceId),
      allowCreatorApproval: Type.Boolean(),
    }),
  ),
  autoApprove: Type.Boolean(),
  autoApproveBelow: Type.Optional(amountOut('Matching payments below this amount are approved at creation')),
  version: Version,
  etag: Etag,
  created: Timestamp,
  updated: Timestamp,
})
export type ApprovalChain = Static<typeof ApprovalChain>

export const ApprovalChainListQuery = Type.Object(ListQueryProperties)
export type ApprovalChainListQuery = Static<typeof ApprovalChainListQuery>
