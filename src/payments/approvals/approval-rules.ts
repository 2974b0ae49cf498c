import { ApiError } from '../../http/errors.js'
import type { Actor } from '../../iam/actor.js'
import { derivedId } from '../../shared/ids.js'

/**
 * Approval chains (spec: Approval rules; reference §4) as pure functions: which steps a new
 * payment gets, and whether an actor may approve one of them.
 */

export type PaymentKind = 'CREDIT_TRANSFER' | 'DIRECT_DEBIT'

export interface InOrNotIn {
  in?: string[]
  notIn?: string[]
}

/** Every given condition must hold for the chain to apply. */
export interface ChainTrigger {
  paymentTypes?: PaymentKind[]
  accountIds?: InOrNotIn
  creatorRoleIds?: InOrNotIn
  currency?: string
  /** Minor units of `currency` (required with an amount condition: thresholds are not converted). */
  amountAtLeast?: number
  amountBelow?: number
}

export interface ChainStep {
  requiredRoleIds: string[]
  requiredUserIds: string[]
  allowCreatorApproval: boolean
}

export interface ApprovalChain {
  id: string
  trigger: ChainTrigger
  steps: ChainStep[]
  /** Straight-through processing: matching payments need no human approval (opt-in). */
  autoApprove: boolean
  /** Matching payments below this amount (minor units of trigger.currency) are approved automatically. */
  autoApproveBelow?: number
}

export interface PaymentFacts {
  kind: PaymentKind
  accountId: string
  currency: string
  amount: number
  creatorRoleId: string
}

export interface PlannedStep {
  approvalChainId: string | null
  requiredRoleIds: string[]
  requiredUserIds: string[]
  allowCreatorApproval: boolean
  autoApproved: boolean
}

function satisfies(value: string, condition: InOrNotIn | undefined): boolean {
  if (!condition) return true
  if (condition.in && !condition.in.includes(value)) return false
  if (condition.notIn && condition.notIn.includes(value)) return false
  return true
}

export function chainMatches(trigger: ChainTrigger, payment: PaymentFacts): boolean {
  if (trigger.paymentTypes && !trigger.paymentTypes.includes(payment.kind)) return false
  if (!satisfies(payment.accountId, trigger.accountIds)) return false
  if (!satisfies(payment.creatorRoleId, trigger.creatorRoleIds)) return false
  if (trigger.currency !== undefined && trigger.currency !== payment.currency) return false
  if (trigger.amountAtLeast !== undefined && payment.amount < trigger.amountAtLeast) return false
  if (trigger.amountBelow !== undefined && payment.amount >= trigger.amountBelow) return false
  return true
}

/**
 * The id of an organization's implicit Owner chain: the chain a step of the Owner's fallback belongs to.
 * The reference requires every step to name its chain (PaymentApprovalStep.approvalChainId), and the
 * fallback is one chain in effect — one step, decided by the Owner role — without a row of its own. Its id
 * is derived from the organization's (name-based UUID), so it is the same for every such step of the
 * organization, on every server, and no configured chain has it. Steps store null for it (see plannedSteps).
 */
export function ownerApprovalChainId(organizationId: string): string {
  return derivedId('owner approval chain', organizationId)
}

/**
 * Every matching chain adds its steps (in chain order). No chain, or none matching: the
 * organization's Owner must approve, and may approve their own payment (a one-person
 * organization must be able to pay); that step's chain is null, served as ownerApprovalChainId.
 */
export function plannedSteps(chains: ApprovalChain[], payment: PaymentFacts, ownerRoleId: string): PlannedStep[] {
  return stepsOf(chains.filter((chain) => chainMatches(chain.trigger, payment)), payment.amount, ownerRoleId)
}

/**
 * The steps of a credit transfer batch approved as one (treatment BATCH; reference §3.3): every chain that its total
 * matches, or that any of its payments would match alone — so that splitting a payment into a batch escapes no chain
 * (one whose amountBelow the total passes, a creator or account condition) — each chain's steps as for the total,
 * automatic only when the total is (autoApprove, or a total below autoApproveBelow). `batch` carries the total.
 */
export function plannedBatchSteps(chains: ApprovalChain[], batch: PaymentFacts, amounts: readonly number[], ownerRoleId: string): PlannedStep[] {
  const applies = (chain: ApprovalChain) =>
    chainMatches(chain.trigger, batch) || amounts.some((amount) => chainMatches(chain.trigger, { ...batch, amount }))
  return stepsOf(chains.filter(applies), batch.amount, ownerRoleId)
}

/** The steps of the chains that apply to an amount (or the Owner's one step when none does). */
function stepsOf(matching: ApprovalChain[], amount: number, ownerRoleId: string): PlannedStep[] {
  if (matching.length === 0) {
    return [{ approvalChainId: null, requiredRoleIds: [ownerRoleId], requiredUserIds: [], allowCreatorApproval: true, autoApproved: false }]
  }
  return matching.flatMap((chain): PlannedStep[] => {
    const automatic = chain.autoApprove || (chain.autoApproveBelow !== undefined && amount < chain.autoApproveBelow)
    if (automatic || chain.steps.length === 0) {
      return [{ approvalChainId: chain.id, requiredRoleIds: [], requiredUserIds: [], allowCreatorApproval: false, autoApproved: true }]
    }
    return chain.steps.map((step) => ({
      approvalChainId: chain.id,
      requiredRoleIds: step.requiredRoleIds,
      requiredUserIds: step.requiredUserIds,
      allowCreatorApproval: step.allowCreatorApproval,
      autoApproved: false,
    }))
  })
}

export interface StepState {
  id: string
  approvalChainId: string | null
  requiredRoleIds: string[]
  requiredUserIds: string[]
  allowCreatorApproval: boolean
  status: 'PENDING' | 'APPROVED' | 'REJECTED'
  approverUserId: string | null
}

/**
 * Why `actor` may not approve `step` of a payment `creatorUserId` created, or undefined when they may.
 * conflict (409) for a decided step; forbidden (403) for a user without the step's role or name, the
 * creator where the step does not allow it, or a second step of one chain.
 */
function approvalRefusal(step: StepState, steps: StepState[], actor: Pick<Actor, 'userId' | 'roleId'>, creatorUserId: string): ApiError | undefined {
  if (step.status !== 'PENDING') return new ApiError('conflict', `The approval step ${step.id} is already ${step.status}`)
  const byRole = step.requiredRoleIds.includes(actor.roleId)
  const byName = step.requiredUserIds.includes(actor.userId)
  if (!byRole && !byName) return new ApiError('forbidden', "The required approver roles or users didn't match this user")
  if (actor.userId === creatorUserId && !step.allowCreatorApproval) {
    return new ApiError('forbidden', 'The creator of a payment may not approve this step of it')
  }
  const approvedAnotherStepOfChain = steps.some(
    (other) =>
      other.id !== step.id &&
      other.approvalChainId !== null &&
      other.approvalChainId === step.approvalChainId &&
      other.approverUserId === actor.userId,
  )
  if (approvedAnotherStepOfChain) return new ApiError('forbidden', 'One user may not approve two steps of the same approval chain')
  return undefined
}

/**
 * May `actor` approve `step` of a payment `creatorUserId` created?
 * @throws ApiError conflict (409) for a decided step; forbidden (403) for a user without the step's
 * role or name, the creator where the step does not allow it, or a second step of one chain.
 */
export function checkApprover(step: StepState, steps: StepState[], actor: Actor, creatorUserId: string): void {
  const refusal = approvalRefusal(step, steps, actor, creatorUserId)
  if (refusal) throw refusal
}

/** Whether `actor` may approve some step of a payment (checkApprover's rules): the list filter approvableBy=me. */
export function hasApprovableStep(steps: StepState[], actor: Pick<Actor, 'userId' | 'roleId'>, creatorUserId: string): boolean {
  return steps.some((step) => approvalRefusal(step, steps, actor, creatorUserId) === undefined)
}
