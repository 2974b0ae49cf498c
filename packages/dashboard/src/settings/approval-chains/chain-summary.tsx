import { useDirectory } from '../../api/directory'
import { formatMoney } from '../../format/money'
import { LOCALE } from '../../format/format'
import type { ApprovalChain, Role, User } from '../types'

const TYPE_WORDS = { CREDIT_TRANSFER: 'credit transfers', DIRECT_DEBIT: 'direct debits' } as const

/** Names for the ids a chain holds: the lists read for the page, else the directory's (read at sign-in). */
export interface Names {
  role: (id: string) => string
  user: (id: string) => string
}

export function useNames(roles: Role[], users: User[]): Names {
  const directory = useDirectory()
  return {
    role: (id) => roles.find((role) => role.id === id)?.name ?? directory.roleName(id),
    user: (id) => users.find((user) => user.id === id)?.name ?? directory.userName(id),
  }
}

/** When a chain applies, in words: "Credit transfers in EUR of at least €40,000.00, created by admin". */
export function conditionsOf(chain: ApprovalChain, names: Names, accountName: (id: string) => string): string[] {
  const { trigger } = chain
  const money = (amount: NonNullable<typeof trigger.amountAtLeast>) => formatMoney(amount, LOCALE)
  return [
    trigger.paymentTypes ? `Only ${trigger.paymentTypes.map((type) => TYPE_WORDS[type]).join(' and ')}` : 'Credit transfers and direct debits',
    ...(trigger.currency ? [`in ${trigger.currency}`] : []),
    ...(trigger.amountAtLeast ? [`of at least ${money(trigger.amountAtLeast)}`] : []),
    ...(trigger.amountBelow ? [`below ${money(trigger.amountBelow)}`] : []),
    ...(trigger.accountIds?.in ? [`from ${trigger.accountIds.in.map(accountName).join(' or ')}`] : []),
    ...(trigger.accountIds?.notIn ? [`not from ${trigger.accountIds.notIn.map(accountName).join(' or ')}`] : []),
    ...(trigger.creatorRoleIds?.in ? [`created by ${trigger.creatorRoleIds.in.map(names.role).join(' or ')}`] : []),
    ...(trigger.creatorRoleIds?.notIn ? [`not created by ${trigger.creatorRoleIds.notIn.map(names.role).join(' or ')}`] : []),
  ]
}

/** The chain's steps, one line each ("any owner or Bob Okafor"), or that it approves automatically. */
export function ChainSteps({ chain, names }: { chain: ApprovalChain; names: Names }) {
  if (chain.autoApprove) return <span>Approved automatically</span>
  return (
    <ol class="step-list">
      {chain.steps.map((step, index) => (
        <li key={index}>
          {[...step.requiredRoleIds.map((id) => `any ${names.role(id)}`), ...step.requiredUserIds.map(names.user)].join(' or ')}
          {step.allowCreatorApproval && <span class="secondary"> (creator may approve)</span>}
        </li>
      ))}
      {chain.autoApproveBelow && <li class="secondary">Below {formatMoney(chain.autoApproveBelow, LOCALE)}: approved automatically</li>}
    </ol>
  )
}
