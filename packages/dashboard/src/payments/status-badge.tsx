import type { Payment } from '../api/types'
import { Badge, type Tone } from '../ui/badge'

type Status = Payment['status']

const TONES: Record<Status, Tone> = {
  CREATED: 'waiting',
  APPROVED: 'info',
  PENDING_SUBMISSION: 'info',
  SENT: 'info',
  PENDING_AT_BANK: 'info',
  ACCEPTED: 'info',
  EXECUTED: 'good',
  RECONCILED: 'good',
  REJECTED: 'bad',
  FAILED: 'bad',
  RETURNED: 'bad',
  CANCELLED: 'neutral',
}

/** Every status of the API's payment lifecycle, in its order; the compiler holds TONES to exactly the API's statuses. */
export const PAYMENT_STATUSES = Object.keys(TONES) as Status[]

/** A payment's status as the API names it, in words people read ("Pending at bank"). */
export function statusLabel(status: Status): string {
  const words = status.toLowerCase().replace(/_/g, ' ')
  return words.charAt(0).toUpperCase() + words.slice(1)
}

export function StatusBadge({ status }: { status: Status }) {
  return <Badge tone={TONES[status]}>{statusLabel(status)}</Badge>
}
