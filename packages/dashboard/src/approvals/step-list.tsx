import { useDirectory } from '../api/directory'
import type { ApprovalStep } from '../api/types'
import { Timestamp } from '../format/format'

/**
 * A payment's approval chain, step by step: who approved (and when), who may still approve, or that it
 * went through automatically. `mine` marks the step the signed-in person would approve.
 */
export function StepList({ steps, mine }: { steps: ApprovalStep[]; mine?: string }) {
  const directory = useDirectory()
  const approvers = (step: ApprovalStep) =>
    [...(step.requiredUserIds ?? []).map(directory.userName), ...(step.requiredRoleIds ?? []).map((id) => `any ${directory.roleName(id)}`)].join(' or ')

  return (
    <ol class="step-list">
      {steps.map((step) => (
        <li key={step.id} class={`step step-${step.status.toLowerCase()}${step.id === mine ? ' step-mine' : ''}`}>
          {step.autoApproved ? (
            <span>Approved automatically</span>
          ) : step.status === 'PENDING' ? (
            <span>
              Waiting for {approvers(step)}
              {step.id === mine && <strong class="step-you"> — you</strong>}
            </span>
          ) : (
            <span>
              {step.status === 'APPROVED' ? 'Approved' : 'Rejected'} by {step.approver ? directory.userName(step.approver.id) : 'unknown'}
              {step.updated && (
                <>
                  {', '}
                  <Timestamp at={step.updated} short />
                </>
              )}
            </span>
          )}
        </li>
      ))}
    </ol>
  )
}
