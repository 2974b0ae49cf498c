/** A set of checkboxes for choosing some of `options` (roles, people, accounts); none ticked is a choice too. */
export function ChoiceList({
  legend,
  hint,
  options,
  chosen,
  onChange,
  wide = false,
}: {
  legend: string
  hint?: string
  options: { id: string; label: string }[]
  chosen: string[]
  onChange: (chosen: string[]) => void
  /** Options with long labels (accounts): fewer to a row. */
  wide?: boolean
}) {
  return (
    <fieldset class="choice-list">
      <legend>{legend}</legend>
      {hint && <p class="field-hint">{hint}</p>}
      <div class={wide ? 'checks checks-wide' : 'checks'}>
        {options.map((option) => (
          <label key={option.id} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(option.id)}
              onChange={(event) => onChange(event.currentTarget.checked ? [...chosen, option.id] : chosen.filter((id) => id !== option.id))}
            />
            {option.label}
          </label>
        ))}
      </div>
    </fieldset>
  )
}
