import { useState } from 'preact/hooks'
import { formatMoney } from '../format/money'
import { LOCALE } from '../format/format'
import { partiesOf } from '../payments/parties'
import { ConfirmDialog } from '../ui/confirm-dialog'
import { Field } from '../ui/field'
import { reject } from './decisions'
import type { WaitingApproval } from './waiting-approval'

/** The API's limit on a rejection reason (RejectBody in src/payments/lifecycle/payment.schemas.ts). */
const REASON_MAX = 255

/**
 * "Reject payment": a ConfirmDialog that names the payment and takes an optional reason, kept in the
 * payment's history.
 */
export function RejectDialog({ item, onClose, onRejected }: { item: WaitingApproval; onClose: () => void; onRejected: () => void }) {
  const [reason, setReason] = useState('')
  const { counterparty } = partiesOf(item.kind, item.payment)

  return (
    <ConfirmDialog
      title="Reject payment"
      confirm="Reject payment"
      refusal="Not rejected"
      onClose={onClose}
      onConfirm={async () => {
        await reject(item, reason)
        onRejected()
      }}
    >
      <p>
        {formatMoney(item.payment.amount, LOCALE)} to {counterparty.name}, reference “{item.payment.reference}”. A rejected payment is final: it will
        not be sent.
      </p>
      <Field label="Reason" hint={`Optional. Kept in the payment's history; up to ${REASON_MAX} characters.`}>
        {(control) => <textarea {...control} rows={3} maxLength={REASON_MAX} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />}
      </Field>
    </ConfirmDialog>
  )
}
