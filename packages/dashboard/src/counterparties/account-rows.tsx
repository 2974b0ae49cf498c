import { useState } from 'preact/hooks'
import { detailFor, type Problem } from '../api/problem'
import { Field } from '../ui/field'
import { electronicIban, ibanProblem } from './iban'

/** An account as the form holds it: the IBAN as typed, and an optional alias. */
export interface AccountRow {
  key: number
  iban: string
  alias: string
}

let nextKey = 0
export const emptyAccount = (): AccountRow => ({ key: nextKey++, iban: '', alias: '' })

/**
 * The IBAN field: checked as it is typed (iban.ts) — a finished-looking IBAN at once, a short one when
 * the field is left — and then with the API's own verdict for `field` after "Create".
 */
function IbanField({ value, onInput, apiError }: { value: string; onInput: (value: string) => void; apiError?: string }) {
  const [left, setLeft] = useState(false)
  const problem = value.trim() ? ibanProblem(value) : undefined
  const tooEarly = problem?.startsWith('Too short') && !left
  const iban = electronicIban(value)
  const hint = !value.trim() ? 'Spaces are fine: DE89 3704 0044 0532 0130 00' : problem ? undefined : `${iban.slice(0, 2)} · ${iban.length} characters · check digits match`
  return (
    <Field label="IBAN" hint={hint ?? (tooEarly ? problem : undefined)} error={apiError ?? (tooEarly ? undefined : problem)}>
      {(control) => (
        <input
          {...control}
          class="mono"
          required
          autoComplete="off"
          spellcheck={false}
          value={value}
          onInput={(event) => onInput(event.currentTarget.value)}
          onBlur={() => setLeft(true)}
        />
      )}
    </Field>
  )
}

/** The new counterparty's accounts, one or more (up to the API's 25), each an IBAN with an optional alias. */
export function AccountRows({ rows, onChange, problem }: { rows: AccountRow[]; onChange: (rows: AccountRow[]) => void; problem?: Problem }) {
  const update = (key: number, change: Partial<AccountRow>) => onChange(rows.map((row) => (row.key === key ? { ...row, ...change } : row)))
  return (
    <fieldset class="fieldset">
      <legend>Accounts</legend>
      {rows.map((row, index) => (
        <div key={row.key} class="account-row" role="group" aria-label={`Account ${index + 1}`}>
          <IbanField
            value={row.iban}
            onInput={(iban) => update(row.key, { iban })}
            apiError={detailFor(problem, `accounts.${index}.identifiers.0.number`)?.error}
          />
          <Field label="Account alias" hint="Optional, e.g. “Payroll account”." error={detailFor(problem, `accounts.${index}.alias`)?.error}>
            {(control) => <input {...control} value={row.alias} onInput={(event) => update(row.key, { alias: event.currentTarget.value })} />}
          </Field>
          {rows.length > 1 && (
            <button type="button" class="button quiet" onClick={() => onChange(rows.filter((other) => other.key !== row.key))}>
              Remove account {index + 1}
            </button>
          )}
        </div>
      ))}
      <button type="button" class="button" onClick={() => onChange([...rows, emptyAccount()])}>
        Add account
      </button>
    </fieldset>
  )
}

/** The accounts as the API takes them: the IBAN in electronic form, its country as the market. */
export function accountsBody(rows: AccountRow[]) {
  return rows.map((row) => {
    const number = electronicIban(row.iban)
    const market = number.slice(0, 2)
    return { market, identifiers: [{ market, type: 'IBAN' as const, number }], ...(row.alias.trim() ? { alias: row.alias.trim() } : {}) }
  })
}
