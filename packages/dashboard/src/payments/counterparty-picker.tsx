import type { ListItem } from '@kassa/client'
import { useEffect, useId, useRef, useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf } from '../api/problem'
import type { Loaded } from '../api/use-load'
import { accountLabel } from '../format/account'
import { Field } from '../ui/field'

export type Counterparty = ListItem<'/payments/v2/counterparties'>

/** The API's shortest search (reference §7: free text of at least 3 characters). */
const MIN_QUERY = 3
/** Typing pauses this long before a search is sent: one request per word, not per key. */
const DEBOUNCE_MILLISECONDS = 250
const MATCHES_SHOWN = 8

/**
 * A counterparty found by typing part of its name, alias or an account number (the list's `query`
 * search), then chosen from the matches below the box. The matches are buttons: Tab or the arrow keys
 * reach them, Escape goes back to the box. Typing again after a choice drops the choice.
 */
export function CounterpartyPicker({
  label,
  hint,
  error,
  selected,
  onPick,
}: {
  label: string
  hint?: string
  error?: string
  selected: Pick<Counterparty, 'id' | 'legalName'> | undefined
  onPick: (counterparty: Counterparty | undefined) => void
}) {
  const [text, setText] = useState(selected?.legalName ?? '')
  const [found, setFound] = useState<Loaded<Counterparty[]> | undefined>(undefined)
  const box = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLUListElement>(null)
  const listId = useId()
  const query = text.trim()
  const searching = query.length >= MIN_QUERY && text !== selected?.legalName

  // A choice made elsewhere (read from the address, cleared by "Clear filters") shows in the box; a choice
  // dropped by typing leaves what was typed.
  const typedAway = useRef(false)
  useEffect(() => {
    if (selected || !typedAway.current) setText(selected?.legalName ?? '')
    typedAway.current = false
  }, [selected?.id, selected?.legalName])

  useEffect(() => {
    if (!searching) return setFound(undefined)
    let current = true
    const timer = window.setTimeout(() => {
      setFound({ status: 'loading' })
      kassa.GET('/payments/v2/counterparties', { params: { query: { query, limit: MATCHES_SHOWN } } }).then(
        ({ data }) => current && setFound({ status: 'ready', data: data.items }),
        (failure: unknown) => current && setFound({ status: 'error', problem: problemOf(failure) }),
      )
    }, DEBOUNCE_MILLISECONDS)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [query, searching])

  function choose(counterparty: Counterparty) {
    setText(counterparty.legalName)
    setFound(undefined)
    onPick(counterparty)
    box.current?.focus()
  }

  function type(value: string) {
    setText(value)
    if (selected) {
      typedAway.current = true
      onPick(undefined)
    }
  }

  /** Arrow keys move between the box and the matches; Escape goes back to the box, and from the box closes the matches. */
  function move(event: KeyboardEvent) {
    const options = Array.from(list.current?.querySelectorAll('button') ?? [])
    const at = options.indexOf(document.activeElement as HTMLButtonElement)
    if (event.key === 'ArrowDown' && options.length > 0) options[Math.min(at + 1, options.length - 1)]!.focus()
    else if (event.key === 'ArrowUp' && at > 0) options[at - 1]!.focus()
    else if (event.key === 'ArrowUp' && at === 0) box.current?.focus()
    else if (event.key === 'Escape' && at >= 0) box.current?.focus()
    else if (event.key === 'Escape' && found) setText(selected?.legalName ?? '')
    else return
    event.preventDefault()
  }

  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <div class="picker" onKeyDown={move}>
          <input {...control} ref={box} type="search" autoComplete="off" placeholder="Name or IBAN" aria-controls={listId} value={text} onInput={(event) => type(event.currentTarget.value)} />
          {found && (
            <div class="picker-results" id={listId}>
              {found.status === 'ready' && found.data.length > 0 ? (
                <ul ref={list} aria-label="Matching counterparties">
                  {found.data.map((counterparty) => (
                    <li key={counterparty.id}>
                      <button type="button" onClick={() => choose(counterparty)}>
                        <span class="primary-text">{counterparty.legalName}</span>
                        {counterparty.accounts[0] && <span class="secondary mono">{accountLabel(counterparty.accounts[0])}</span>}
                      </button>
                    </li>
                  ))}
                </ul>
              ) : (
                <p class="picker-note" role="status">
                  {found.status === 'loading'
                    ? 'Searching…'
                    : found.status === 'error'
                      ? `Could not search: ${found.problem.message}`
                      : `No counterparty matches “${query}”.`}
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </Field>
  )
}
