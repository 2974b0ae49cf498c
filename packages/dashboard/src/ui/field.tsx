import type { ComponentChildren } from 'preact'
import { useId } from 'preact/hooks'

/**
 * A labelled form control with its hint and error, tied to it for screen readers (aria-describedby,
 * aria-invalid). `children` gets the ids to put on the control.
 */
export function Field({
  label,
  hint,
  error,
  children,
}: {
  label: string
  hint?: string
  error?: string
  children: (control: { id: string; 'aria-describedby'?: string; 'aria-invalid'?: boolean }) => ComponentChildren
}) {
  const id = useId()
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ')
  return (
    <div class={`field${error ? ' field-invalid' : ''}`}>
      <label for={id}>{label}</label>
      {children({ id, ...(described ? { 'aria-describedby': described } : {}), ...(error ? { 'aria-invalid': true } : {}) })}
      {hint && (
        <p class="field-hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  )
}
