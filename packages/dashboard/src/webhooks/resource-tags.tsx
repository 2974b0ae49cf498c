import type { WebhookFilter } from './types'
import { RESOURCE_LABEL } from './types'

/** What a webhook subscribes to: each resource, and its events when it names only some. */
export function ResourceTags({ filter }: { filter: WebhookFilter[] }) {
  return (
    <ul class="tags plain-list">
      {filter.map((entry) => (
        <li key={entry.resource} class="badge">
          {RESOURCE_LABEL[entry.resource]}
          {entry.events ? `: ${entry.events.join(', ')}` : ''}
        </li>
      ))}
    </ul>
  )
}
