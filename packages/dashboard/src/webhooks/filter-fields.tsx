import { Field } from '../ui/field'
import { API_VERSION, RESOURCE_LABEL, type WebhookFilter, type WebhookResource } from './types'

/** The filter as the form holds it: the resources ticked, and the events typed for each (empty: all). */
export type FilterChoice = Partial<Record<WebhookResource, string>>

const RESOURCES = Object.keys(RESOURCE_LABEL) as WebhookResource[]

/** The filter as the API takes it: each ticked resource once, with the events named ("EXECUTED, FAILED"), if any. */
export function filterBody(choice: FilterChoice): WebhookFilter[] {
  return RESOURCES.filter((resource) => choice[resource] !== undefined).map((resource) => {
    const events = choice[resource]!.split(/[\s,]+/).filter(Boolean).map((event) => event.toUpperCase())
    return { resource, apiVersion: API_VERSION, ...(events.length > 0 ? { events } : {}) }
  })
}

/** "Events of": a checkbox per resource, and for each one ticked, the events wanted (optional). */
export function FilterFields({ choice, onChange, error }: { choice: FilterChoice; onChange: (choice: FilterChoice) => void; error?: string }) {
  function toggle(resource: WebhookResource, on: boolean) {
    const next = { ...choice }
    if (on) next[resource] = ''
    else delete next[resource]
    onChange(next)
  }
  return (
    <fieldset class="fieldset" aria-describedby={error ? 'filter-error' : undefined}>
      <legend>Events of</legend>
      <p class="field-hint">Tick the resources whose events this endpoint receives; name events to receive only those.</p>
      <div class="checks">
        {RESOURCES.map((resource) => (
          <label key={resource} class="check">
            <input type="checkbox" checked={choice[resource] !== undefined} onChange={(event) => toggle(resource, event.currentTarget.checked)} />
            {RESOURCE_LABEL[resource]}
          </label>
        ))}
      </div>
      {RESOURCES.filter((resource) => choice[resource] !== undefined).map((resource) => (
        <Field key={resource} label={`Only these events of ${RESOURCE_LABEL[resource].toLowerCase()}`} hint="Optional, e.g. CREATED, FULLY_APPROVED, EXECUTED. Empty: every event.">
          {(control) => (
            <input {...control} class="mono" value={choice[resource]} onInput={(event) => onChange({ ...choice, [resource]: event.currentTarget.value })} />
          )}
        </Field>
      ))}
      {error && (
        <p class="field-error" id="filter-error">
          {error}
        </p>
      )}
    </fieldset>
  )
}
