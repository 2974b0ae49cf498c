import type { JsonPatch, operations } from '@kassa/client'
import { amountEntryText, amountProblemText, currencyDigits, parseAmountEntry, type NumberMarks } from '../../payments/amount-entry'
import type { ApprovalChain } from '../types'

export type PaymentType = NonNullable<ApprovalChain['trigger']['paymentTypes']>[number]
/** The body of POST /iam/v2/approval-chains, as the generated client types it. */
export type ChainBody = NonNullable<operations['createApprovalChain']['requestBody']>['content']['application/json']
type ChainPatch = JsonPatch<'/iam/v2/approval-chains/{id}'>

/** The API's limit on a chain's steps (MAX_STEPS in src/payments/approvals/approval-chain.schemas.ts). */
export const MAX_STEPS = 10

export interface StepDraft {
  /** Keeps a step's fields with it when one before it is removed. */
  key: number
  roleIds: string[]
  userIds: string[]
  allowCreatorApproval: boolean
}

/** The chain's amounts: the range it applies to, and the one below which it approves by itself. */
export const AMOUNT_FIELDS = ['amountAtLeast', 'amountBelow', 'autoApproveBelow'] as const
export type AmountField = (typeof AMOUNT_FIELDS)[number]

/**
 * An approval chain as its form edits it (src/payments/approvals/approval-chain.schemas.ts): amounts
 * as the reader types them, in the chain's currency; accounts and creator roles as the ones the chain
 * applies to only ("in"); an empty list or field is no condition. The "notIn" lists, which the form
 * does not edit, are kept as the chain had them.
 */
export interface ChainDraft {
  name: string
  paymentTypes: PaymentType[]
  currency: string
  amounts: Record<AmountField, string>
  accountIds: string[]
  creatorRoleIds: string[]
  autoApprove: boolean
  steps: StepDraft[]
  keptAccountsNotIn?: string[]
  keptCreatorRolesNotIn?: string[]
}

let nextKey = 0
export const emptyStep = (): StepDraft => ({ key: nextKey++, roleIds: [], userIds: [], allowCreatorApproval: false })

export const emptyDraft = (): ChainDraft => ({
  name: '',
  paymentTypes: [],
  currency: '',
  amounts: { amountAtLeast: '', amountBelow: '', autoApproveBelow: '' },
  accountIds: [],
  creatorRoleIds: [],
  autoApprove: false,
  steps: [emptyStep()],
})

/** The chain as the form starts editing it, its amounts written as the reader writes them. */
export function draftOf(chain: ApprovalChain, marks: NumberMarks): ChainDraft {
  const { trigger } = chain
  const currency = trigger.currency ?? ''
  const typed = (amount: { value: number } | undefined) => (amount ? amountEntryText(amount.value, currencyDigits(currency), marks) : '')
  return {
    name: chain.name,
    paymentTypes: trigger.paymentTypes ?? [],
    currency,
    amounts: { amountAtLeast: typed(trigger.amountAtLeast), amountBelow: typed(trigger.amountBelow), autoApproveBelow: typed(chain.autoApproveBelow) },
    accountIds: trigger.accountIds?.in ?? [],
    creatorRoleIds: trigger.creatorRoleIds?.in ?? [],
    autoApprove: chain.autoApprove,
    steps: chain.steps.map((step) => ({ key: nextKey++, roleIds: step.requiredRoleIds, userIds: step.requiredUserIds, allowCreatorApproval: step.allowCreatorApproval })),
    ...(trigger.accountIds?.notIn ? { keptAccountsNotIn: trigger.accountIds.notIn } : {}),
    ...(trigger.creatorRoleIds?.notIn ? { keptCreatorRolesNotIn: trigger.creatorRoleIds.notIn } : {}),
  }
}

/** A chain's parts with amounts in minor units: what both a draft and a chain read from the API become. */
interface ChainParts extends Omit<ChainDraft, 'amounts' | 'currency'> {
  currency: string
  minor: Partial<Record<AmountField, number>>
}

const inOrNotIn = (included: string[], excluded: string[] | undefined) =>
  included.length > 0 || excluded ? { ...(included.length > 0 ? { in: included } : {}), ...(excluded ? { notIn: excluded } : {}) } : undefined

/** The body of a chain (CreateApprovalChain), built one way from any parts, so two bodies compare field by field. */
function bodyOf(parts: ChainParts): ChainBody {
  const { currency, minor } = parts
  const amount = (field: AmountField) => (minor[field] === undefined ? undefined : { currency, value: minor[field] })
  const accountIds = inOrNotIn(parts.accountIds, parts.keptAccountsNotIn)
  const creatorRoleIds = inOrNotIn(parts.creatorRoleIds, parts.keptCreatorRolesNotIn)
  const trigger: ChainBody['trigger'] = {
    ...(parts.paymentTypes.length > 0 ? { paymentTypes: parts.paymentTypes } : {}),
    ...(currency ? { currency } : {}),
    ...(amount('amountAtLeast') ? { amountAtLeast: amount('amountAtLeast') } : {}),
    ...(amount('amountBelow') ? { amountBelow: amount('amountBelow') } : {}),
    ...(accountIds ? { accountIds } : {}),
    ...(creatorRoleIds ? { creatorRoleIds } : {}),
  }
  const steps = parts.autoApprove
    ? []
    : parts.steps.map((step) => ({
        ...(step.roleIds.length > 0 ? { requiredRoleIds: step.roleIds } : {}),
        ...(step.userIds.length > 0 ? { requiredUserIds: step.userIds } : {}),
        allowCreatorApproval: step.allowCreatorApproval,
      }))
  const below = amount('autoApproveBelow')
  return { name: parts.name.trim(), trigger, steps, ...(parts.autoApprove ? { autoApprove: true } : {}), ...(below ? { autoApproveBelow: below } : {}) }
}

/** What is wrong with a draft before it is sent: an amount that does not read, or amounts without a currency. */
export type DraftProblems = Partial<Record<AmountField | 'currency', string>>

/**
 * The draft as the API takes it, its amounts read in the reader's own way of writing numbers into exact
 * minor units of the chain's currency (amount-entry.ts: no float ever stands for an amount); or what is
 * wrong with it. Everything else is the API's to judge.
 */
export function readDraft(draft: ChainDraft, marks: NumberMarks): { body: ChainBody } | { problems: DraftProblems } {
  const currency = draft.currency.trim().toUpperCase()
  const problems: DraftProblems = {}
  const minor: ChainParts['minor'] = {}
  const given = AMOUNT_FIELDS.filter((field) => draft.amounts[field].trim() !== '')
  if (given.length > 0 && !/^[A-Z]{3}$/.test(currency)) problems.currency = 'Give the currency of the amounts (they are not converted), e.g. EUR.'
  else {
    for (const field of given) {
      const digits = currencyDigits(currency)
      const entry = parseAmountEntry(draft.amounts[field], digits, marks)
      if (entry.ok) minor[field] = entry.value
      else problems[field] = amountProblemText(entry.problem, currency, digits, marks)
    }
  }
  if (Object.keys(problems).length > 0) return { problems }
  return { body: bodyOf({ ...draft, currency, minor }) }
}

/** The chain as read, in the same shape as a draft's body. */
function bodyOfChain(chain: ApprovalChain): ChainBody {
  const { trigger } = chain
  const minor = {
    ...(trigger.amountAtLeast ? { amountAtLeast: trigger.amountAtLeast.value } : {}),
    ...(trigger.amountBelow ? { amountBelow: trigger.amountBelow.value } : {}),
    ...(chain.autoApproveBelow ? { autoApproveBelow: chain.autoApproveBelow.value } : {}),
  }
  const { amounts: _typed, ...draft } = draftOf(chain, { decimal: '.', group: '' })
  return bodyOf({ ...draft, minor })
}

/**
 * The JSON Patch from the chain as read to `body` (APPROVAL_CHAIN_PATCH_RULES): each of name, trigger
 * and steps replaced when it changed; autoApprove and autoApproveBelow added (which also replaces, RFC
 * 6902 §4.1) or removed. The API validates the patched chain as a new one.
 */
export function chainPatch(chain: ApprovalChain, body: ChainBody): ChainPatch {
  const before = bodyOfChain(chain)
  const changed = (field: keyof ChainBody) => JSON.stringify(before[field]) !== JSON.stringify(body[field])
  const operations: ChainPatch = []
  if (changed('name')) operations.push({ op: 'replace', path: '/name', value: body.name })
  if (changed('trigger')) operations.push({ op: 'replace', path: '/trigger', value: body.trigger })
  if (changed('steps')) operations.push({ op: 'replace', path: '/steps', value: body.steps })
  if (changed('autoApprove')) operations.push({ op: 'add', path: '/autoApprove', value: body.autoApprove ?? false })
  if (changed('autoApproveBelow')) {
    operations.push(body.autoApproveBelow ? { op: 'add', path: '/autoApproveBelow', value: body.autoApproveBelow } : { op: 'remove', path: '/autoApproveBelow' })
  }
  return operations
}
