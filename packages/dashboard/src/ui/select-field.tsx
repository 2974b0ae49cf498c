import { Field } from './field'

/** One choice of a select: the value it stands for, and the words it shows. */
export interface Choice {
  value: string
  label: string
}

/** A record of labels ({ HUMAN: 'Person', … }) as choices, in its order. */
export function choicesOf(labels: Record<string, string>): Choice[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }))
}

/**
 * A labelled select (a Field: its hint and error tied to it) of `choices`, after an optional first
 * choice of nothing (value ''), worded by `none`: "Any status" in a filter, "Choose a role" in a form.
 */
export function SelectField({
  label,
  hint,
  error,
  value,
  none,
  choices,
  required,
  disabled,
  onChange,
}: {
  label: string
  hint?: string
  error?: string
  value: string
  none?: string
  choices: readonly Choice[]
  required?: boolean
  disabled?: boolean
  onChange: (value: string) => void
}) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => (
        <select {...control} required={required} disabled={disabled} value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {none !== undefined && <option value="">{none}</option>}
          {choices.map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  )
}
