import { useState } from 'preact/hooks'
import { problemOf, type Problem } from '../api/problem'
import { ErrorNotice } from '../ui/notices'
import { approve } from './decisions'
import { RejectDialog } from './reject-dialog'
import type { WaitingApproval } from './waiting-approval'

/**
 * Approve and Reject for one waiting payment. Each button is named plainly ("Approve", "Reject") and
 * described by the payment's row (`describedBy`), so a screen reader says which payment it acts on. The
 * API's refusal (four eyes, a step decided meanwhile, a missing second factor) shows under the buttons.
 */
export function ApprovalActions({
  item,
  canApprove,
  describedBy,
  onDecided,
}: {
  item: WaitingApproval
  canApprove: boolean
  describedBy: string
  onDecided: (what: 'Approved' | 'Rejected') => void
}) {
  const [busy, setBusy] = useState(false)
  const [rejecting, setRejecting] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)

  async function approveStep() {
    setBusy(true)
    setProblem(undefined)
    try {
      await approve(item)
      onDecided('Approved')
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <div class="row-actions">
      <div class="button-row">
        {canApprove && (
          <button type="button" class="button primary" disabled={busy} aria-describedby={describedBy} onClick={() => void approveStep()}>
            Approve
          </button>
        )}
        <button type="button" class="button" disabled={busy} aria-describedby={describedBy} aria-haspopup="dialog" onClick={() => setRejecting(true)}>
          Reject
        </button>
      </div>
      {problem && <ErrorNotice problem={problem} title="Not approved" />}
      {rejecting && <RejectDialog item={item} onClose={() => setRejecting(false)} onRejected={() => onDecided('Rejected')} />}
    </div>
  )
}
