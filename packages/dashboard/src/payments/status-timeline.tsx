import { useDirectory } from '../api/directory'
import { Timestamp } from '../format/format'
import type { PaymentEvent } from './payment-record'

/** Event names in words where the name alone reads badly (payment-descriptions.ts lists them all). */
const EVENT_WORDS: Record<string, string> = {
  APPROVAL_STEP_APPROVED: 'Approval step approved',
  FULLY_APPROVED: 'Approved',
  PENDING_SUBMISSION: 'Waiting to be sent',
  SENT_TO_BANK: 'Sent to the bank',
  PENDING_AT_BANK: 'Pending at the bank',
  ACCEPTED_BY_BANK: 'Accepted by the bank',
}

/** "SENT_TO_BANK" → "Sent to the bank"; a name not listed above in sentence case ("DATE_CHANGED" → "Date changed"). */
export function eventLabel(name: string): string {
  const words = name.toLowerCase().replace(/_/g, ' ')
  return EVENT_WORDS[name] ?? words.charAt(0).toUpperCase() + words.slice(1)
}

/**
 * The payment's history from its /events, oldest first: what happened, when (in the reader's time zone),
 * and who caused it — a person by name, the bank, or Kassa itself.
 */
export function StatusTimeline({ events, labelledBy }: { events: PaymentEvent[]; labelledBy: string }) {
  const directory = useDirectory()
  const who = (originator: string) => (originator === 'BANK' ? 'the bank' : originator === 'KASSA' ? 'Kassa' : directory.userName(originator))
  return (
    <ol class="timeline" aria-labelledby={labelledBy}>
      {events.map((event) => (
        <li key={event.id} class={`timeline-event timeline-${event.name.toLowerCase()}`}>
          <span class="timeline-name">{eventLabel(event.name)}</span>
          <span class="secondary">
            <Timestamp at={event.timestamp} /> · by {who(event.originator)}
          </span>
          {event.message && <span class="timeline-message">{event.message}</span>}
        </li>
      ))}
    </ol>
  )
}
