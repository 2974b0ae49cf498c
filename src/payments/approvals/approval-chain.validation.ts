import { invalidField } from '../../http/errors.js'
import { amountFromInput, isCurrency } from '../../shared/money.js'
import { MAX_STEPS, type CreateApprovalChain } from './approval-chain.schemas.js'
import type { ChainStep, ChainTrigger, InOrNotIn } from './approval-rules.js'

/**
 * An approval chain as a request states it, checked for everything that needs no database and
 * turned into the form payment creation evaluates (approval-rules.ts). The ids it names are
 * returned with their fields, for the service to check against the organization.
 */

export interface ChainDefinition {
  trigger: ChainTrigger
  steps: ChainStep[]
  autoApprove: boolean
  /** Minor units of trigger.currency. */
  autoApproveBelow?: number
}

export interface Reference {
  /** The request field naming the id, as a 400 reports it ("steps.1.requiredRoleIds.0"). */
  field: string
  id: string
}

export interface ChainReferences {
  roles: Reference[]
  users: Reference[]
  /** Accounts a chain applies to only ("in"): the service also checks their currency. */
  accountsIn: Reference[]
  accountsNotIn: Reference[]
}

function ids(values: readonly string[] | undefined): string[] | undefined {
  return values?.map((id) => id.toLowerCase())
}

function inOrNotIn(field: string, condition: InOrNotIn | undefined): InOrNotIn | undefined {
  if (condition === undefined) return undefined
  const included = ids(condition.in)
  const excluded = ids(condition.notIn)
  if (!included && !excluded) throw invalidField(field, 'give in, notIn or both')
  excluded?.forEach((id, index) => {
    if (included?.includes(id)) throw invalidField(`${field}.notIn.${index}`, 'is also in "in"')
  })
  return { ...(included ? { in: included } : {}), ...(excluded ? { notIn: excluded } : {}) }
}

function referencesOf(field: string, values: readonly string[] | undefined): Reference[] {
  return (values ?? []).map((id, index) => ({ field: `${field}.${index}`, id }))
}

/**
 * Can every step that names only users get a user of its own (one user may not approve two steps
 * of a chain)? A bipartite matching of steps to users, by augmenting paths.
 * @returns the index of a step left without a user, or undefined when all have one.
 */
export function stepWithoutOwnApprover(namedOnly: ReadonlyArray<{ index: number; users: readonly string[] }>): number | undefined {
  const holder = new Map<string, number>()
  const assign = (step: number, visited: Set<string>): boolean => {
    for (const user of namedOnly[step]!.users) {
      if (visited.has(user)) continue
      visited.add(user)
      const current = holder.get(user)
      if (current === undefined || assign(current, visited)) {
        holder.set(user, step)
        return true
      }
    }
    return false
  }
  for (let step = 0; step < namedOnly.length; step += 1) {
    if (!assign(step, new Set())) return namedOnly[step]!.index
  }
  return undefined
}

/**
 * @throws ApiError invalid_request (400) naming the field: amounts in another currency than the
 * chain's, non-positive amounts, empty or contradictory conditions, a step without approvers,
 * steps with autoApprove or none without it, or named users too few for their steps.
 */
export function chainDefinition(input: CreateApprovalChain): { definition: ChainDefinition; references: ChainReferences } {
  const { trigger } = input
  const autoApprove = input.autoApprove ?? false
  let currency = trigger.currency
  if (currency !== undefined && !isCurrency(currency)) throw invalidField('trigger.currency', `${currency} is not an ISO 4217 currency`)

  // Thresholds are not converted: every amount is in the chain's one currency, which the first amount sets if none is given.
  const minorUnits = (field: string, amount: CreateApprovalChain['autoApproveBelow']): number | undefined => {
    if (amount === undefined) return undefined
    const { currency: amountCurrency, value } = amountFromInput(amount, field)
    if (value <= 0) throw invalidField(`${field}.value`, 'must be positive')
    if (currency === undefined) currency = amountCurrency
    else if (amountCurrency !== currency) throw invalidField(`${field}.currency`, `must be ${currency}, the currency of the chain`)
    return value
  }
  const amountAtLeast = minorUnits('trigger.amountAtLeast', trigger.amountAtLeast)
  const amountBelow = minorUnits('trigger.amountBelow', trigger.amountBelow)
  const autoApproveBelow = minorUnits('autoApproveBelow', input.autoApproveBelow)
  if (amountAtLeast !== undefined && amountBelow !== undefined && amountBelow <= amountAtLeast) {
    throw invalidField('trigger.amountBelow', 'must be greater than trigger.amountAtLeast')
  }
  if (autoApproveBelow !== undefined) {
    if (autoApprove) throw invalidField('autoApproveBelow', 'has no effect with autoApprove: true; give one of them')
    if (amountAtLeast !== undefined && autoApproveBelow <= amountAtLeast) {
      throw invalidField('autoApproveBelow.value', 'must be above trigger.amountAtLeast, or it never applies')
    }
  }

  if (autoApprove && input.steps.length > 0) {
    throw invalidField('steps', 'must be empty with autoApprove: true, as matching payments need no approval')
  }
  if (!autoApprove && input.steps.length === 0) throw invalidField('steps', `needs 1 to ${MAX_STEPS} steps unless autoApprove is true`)
  const steps: ChainStep[] = input.steps.map((step, index) => {
    const requiredRoleIds = ids(step.requiredRoleIds) ?? []
    const requiredUserIds = ids(step.requiredUserIds) ?? []
    if (requiredRoleIds.length + requiredUserIds.length === 0) {
      throw invalidField(`steps.${index}`, 'needs at least one of requiredRoleIds and requiredUserIds')
    }
    return { requiredRoleIds, requiredUserIds, allowCreatorApproval: step.allowCreatorApproval ?? false }
  })
  const namedOnly = steps.flatMap((step, index) => (step.requiredRoleIds.length === 0 ? [{ index, users: step.requiredUserIds }] : []))
  const stranded = stepWithoutOwnApprover(namedOnly)
  if (stranded !== undefined) {
    throw invalidField(
      `steps.${stranded}.requiredUserIds`,
      'names no user left for this step: one user may not approve two steps of a chain, so steps that name only users need as many different users',
    )
  }

  const accountIds = inOrNotIn('trigger.accountIds', trigger.accountIds)
  const creatorRoleIds = inOrNotIn('trigger.creatorRoleIds', trigger.creatorRoleIds)
  const definition: ChainDefinition = {
    trigger: {
      ...(trigger.paymentTypes ? { paymentTypes: trigger.paymentTypes } : {}),
      ...(accountIds ? { accountIds } : {}),
      ...(creatorRoleIds ? { creatorRoleIds } : {}),
      ...(currency !== undefined ? { currency } : {}),
      ...(amountAtLeast !== undefined ? { amountAtLeast } : {}),
      ...(amountBelow !== undefined ? { amountBelow } : {}),
    },
    steps,
    autoApprove,
    ...(autoApproveBelow !== undefined ? { autoApproveBelow } : {}),
  }
  const references: ChainReferences = {
    roles: [
      ...referencesOf('trigger.creatorRoleIds.in', creatorRoleIds?.in),
      ...referencesOf('trigger.creatorRoleIds.notIn', creatorRoleIds?.notIn),
      ...steps.flatMap((step, index) => referencesOf(`steps.${index}.requiredRoleIds`, step.requiredRoleIds)),
    ],
    users: steps.flatMap((step, index) => referencesOf(`steps.${index}.requiredUserIds`, step.requiredUserIds)),
    accountsIn: referencesOf('trigger.accountIds.in', accountIds?.in),
    accountsNotIn: referencesOf('trigger.accountIds.notIn', accountIds?.notIn),
  }
  return { definition, references }
}
