import type { ComponentChildren, Ref } from 'preact'
import type { Problem } from '../api/problem'
import { Link } from '../router/link'
import { ErrorNotice } from './notices'

/**
 * The form of a "New …" page, named by it (`name`, e.g. "New webhook"): the API's refusal at the top
 * under `refusal` ("The webhook was not created"), the fields (`children`), then Create, and Cancel
 * back to the list the page belongs to (`cancelTo`). `noValidate` leaves every check to the page's own
 * code, which `formRef` lets reach the fields.
 */
export function CreateForm({
  name,
  refusal,
  problem,
  busy,
  cancelTo,
  onSubmit,
  formRef,
  noValidate,
  children,
}: {
  name: string
  refusal: string
  problem: Problem | undefined
  busy: boolean
  cancelTo: string
  onSubmit: (event: Event) => void
  formRef?: Ref<HTMLFormElement>
  noValidate?: boolean
  children: ComponentChildren
}) {
  return (
    <form ref={formRef} class="form-card" aria-label={name} noValidate={noValidate} onSubmit={onSubmit}>
      {problem && <ErrorNotice problem={problem} title={refusal} />}
      {children}
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          Create
        </button>
        <Link class="button" to={cancelTo}>
          Cancel
        </Link>
      </div>
    </form>
  )
}
