import { useEffect, useState } from 'preact/hooks'
import { LOCALE } from '../format/format'
import { amountEntryText, amountProblemText, numberMarks, parseAmountEntry, PLAIN_MARKS } from '../payments/amount-entry'
import { Field } from './field'

const MARKS = numberMarks(LOCALE)

/**
 * An amount bound of a list's filters ("Amount from (EUR)"), typed in the reader's writing, put into the
 * address when it is left (change): the plain decimal of what was typed, or nothing when emptied; a
 * mistake stays in the box with its message. A minus sign is read only when `signed` (booked
 * transactions; a payment's amount never is negative).
 */
export function AmountBound({
  label,
  value,
  currency,
  digits,
  signed,
  onCommit,
}: {
  label: string
  value: string
  currency: string
  digits: number
  signed: boolean
  onCommit: (plain: string | undefined) => void
}) {
  const held = value === '' ? undefined : parseAmountEntry(value, digits, PLAIN_MARKS, { signed })
  const shown = held?.ok ? amountEntryText(held.value, digits, MARKS) : value
  const [text, setText] = useState(shown)
  const [error, setError] = useState<string | undefined>(undefined)
  useEffect(() => {
    setText(shown)
    setError(undefined)
  }, [value, digits])
  // What the address holds may be no amount of this currency (another currency chosen since, a link
  // edited by hand): the list leaves it out, and the box says why.
  const heldProblem = held && !held.ok ? amountProblemText(held.problem, currency, digits, MARKS) : undefined

  function commit(typed: string) {
    if (typed.trim() === '') return onCommit(undefined)
    const entry = parseAmountEntry(typed, digits, MARKS, { signed })
    if (!entry.ok) return setError(amountProblemText(entry.problem, currency, digits, MARKS))
    setError(undefined)
    onCommit(amountEntryText(entry.value, digits, PLAIN_MARKS))
  }

  return (
    <Field label={label} error={error ?? heldProblem}>
      {(control) => <input {...control} inputMode="decimal" autoComplete="off" value={text} onInput={(event) => setText(event.currentTarget.value)} onChange={(event) => commit(event.currentTarget.value)} />}
    </Field>
  )
}
