import type { ComponentChildren } from 'preact'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { problemOf, type Problem } from '../api/problem'
import { WriteProblem } from './write-problem'

/**
 * "Delete counterparty?": a modal dialog (the browser's own <dialog>: focus moves in, Escape closes,
 * focus returns to the button that opened it) that says what will happen and acts only on its button
 * (`confirm`, e.g. "Delete"; red unless `tone` is 'primary', for a change that destroys nothing).
 * `children` may hold fields: they are inside the dialog's form. A refusal stays in the dialog, with
 * its request id, under `refusal` ("Not done: delete counterparty" unless told); a stale etag offers
 * `onReload`.
 */
export function ConfirmDialog({
  title,
  confirm,
  refusal = `Not done: ${title.toLowerCase()}`,
  onConfirm,
  onClose,
  onReload = () => window.location.reload(),
  tone = 'danger',
  children,
}: {
  title: string
  confirm: string
  refusal?: string
  /** The change itself; the dialog closes when it resolves. */
  onConfirm: () => Promise<void>
  onClose: () => void
  onReload?: () => void
  tone?: 'danger' | 'primary'
  children: ComponentChildren
}) {
  const dialog = useRef<HTMLDialogElement>(null)
  const titleId = useId()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)

  useEffect(() => {
    dialog.current?.showModal()
  }, [])

  // The browser fires `close` a task after the dialog has closed: the parent hears at once (Escape's `cancel`, the
  // buttons), so a click that follows at once opens a new dialog, never one that this late `close` then shuts. The
  // dialog is closed before the parent unmounts it, so focus has returned to the button that opened it.
  const reported = useRef(false)
  function closed() {
    if (reported.current) return
    reported.current = true
    onClose()
  }
  function close() {
    dialog.current?.close()
    closed()
  }

  async function submit(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      await onConfirm()
      close()
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <dialog ref={dialog} class="dialog" aria-labelledby={titleId} onCancel={close} onClose={closed}>
      <form onSubmit={submit}>
        <h2 id={titleId}>{title}</h2>
        {children}
        {problem && <WriteProblem problem={problem} title={refusal} onReload={onReload} />}
        <div class="form-actions">
          <button type="submit" class={`button ${tone}`} disabled={busy}>
            {confirm}
          </button>
          <button type="button" class="button" onClick={close}>
            Cancel
          </button>
        </div>
      </form>
    </dialog>
  )
}
