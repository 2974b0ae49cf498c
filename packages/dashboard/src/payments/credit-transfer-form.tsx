import { useEffect, useRef, useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import type { Account } from '../accounts/account-types'
import { accountChoices } from '../accounts/own-accounts'
import { accountLabel } from '../format/account'
import { formatCalendarDate } from '../format/dates'
import { LOCALE } from '../format/format'
import { navigate } from '../router/router'
import { CreateForm } from '../ui/create-form'
import { Field } from '../ui/field'
import { SelectField } from '../ui/select-field'
import { amountExample, amountProblemText, currencyDigits, numberMarks, parseAmountEntry } from './amount-entry'
import { calendarToday } from './bank-date'
import { CounterpartyPicker, type Counterparty } from './counterparty-picker'
import { paymentPath } from './payment-kinds'
import { FIELD_LABELS, fieldErrorsOf, type FieldErrors } from './transfer-problems'

/** The API's limits (CreateCreditTransfer in src/payments/credit-transfers/credit-transfer.schemas.ts). */
const REFERENCE_MAX = 140
const SCHEMES = [
  { value: 'SCT', label: 'SEPA credit transfer (SCT)' },
  { value: 'SCT_INST', label: 'SEPA instant credit transfer (SCT_INST)' },
]
const MARKS = numberMarks(LOCALE)

/**
 * "New credit transfer": from an own account to an account of a counterparty found by name or IBAN.
 * The amount is read in the reader's own writing into exact minor units of the account's currency
 * (amount-entry.ts); the date starts at the bank's business date (`sandboxToday`, for sandbox accounts).
 * What the form can tell before sending it does; the API's refusals are shown at their fields.
 */
export function CreditTransferForm({ accounts, sandboxToday }: { accounts: Account[]; sandboxToday: string | undefined }) {
  const [sourceId, setSourceId] = useState(accounts[0]?.id ?? '')
  const [counterparty, setCounterparty] = useState<Counterparty | undefined>(undefined)
  const [destinationId, setDestinationId] = useState('')
  const [amount, setAmount] = useState('')
  const [scheme, setScheme] = useState('SCT')
  const [reference, setReference] = useState('')
  const source = accounts.find((account) => account.id === sourceId)
  const bankToday = source?.fictive && sandboxToday ? sandboxToday : calendarToday()
  const [chosenDate, setChosenDate] = useState<string | undefined>(undefined)
  const date = chosenDate ?? bankToday
  const [errors, setErrors] = useState<FieldErrors>({})
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const form = useRef<HTMLFormElement>(null)
  const currency = source?.currency ?? 'EUR'
  const digits = currencyDigits(currency)

  // After a refused try, the first field with an error takes focus, so its message is read out first.
  useEffect(() => {
    form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
  }, [errors])

  function pickCounterparty(picked: Counterparty | undefined) {
    setCounterparty(picked)
    setDestinationId(picked?.accounts.length === 1 ? picked.accounts[0]!.id : '')
  }

  /** What the form can tell before sending; the API checks the rest (SEPA characters, the date's window…). */
  function check(): { errors: FieldErrors; value?: number } {
    const found: FieldErrors = {}
    if (!source) found.source = 'Choose the account to pay from.'
    if (!counterparty) found.destination = 'Find and choose the counterparty to pay.'
    else if (!destinationId) found.destination = 'Choose one of the counterparty’s accounts.'
    const entry = parseAmountEntry(amount, digits, MARKS)
    if (!entry.ok) found.amount = amountProblemText(entry.problem, currency, digits, MARKS)
    else if (entry.value <= 0) found.amount = 'Enter an amount above zero.'
    if (!date) found.date = 'Choose the date to execute the payment on.'
    if (!reference.trim()) found.reference = 'Enter a reference the counterparty will see.'
    return entry.ok ? { errors: found, value: entry.value } : { errors: found }
  }

  async function submit(event: Event) {
    event.preventDefault()
    const checked = check()
    setProblem(undefined)
    setErrors(checked.errors)
    if (Object.keys(checked.errors).length > 0 || checked.value === undefined) return
    setBusy(true)
    try {
      const { data } = await kassa.POST('/payments/v2/credit-transfers', {
        body: {
          amount: { currency, value: checked.value },
          date,
          scheme,
          source: { type: 'ACCOUNT', id: sourceId },
          destination: { type: 'EXTERNAL_ACCOUNT', id: destinationId },
          reference: reference.trim(),
        },
      })
      navigate(paymentPath('CREDIT_TRANSFER', data.id))
    } catch (error) {
      const refused = problemOf(error)
      const { errors: atFields, rest } = fieldErrorsOf(refused)
      setProblem({ ...refused, details: rest })
      setErrors(atFields)
      setBusy(false)
    }
  }

  return (
    <CreateForm
      name="New credit transfer"
      refusal="The credit transfer was not created"
      problem={problem}
      busy={busy}
      cancelTo="/payments"
      onSubmit={submit}
      formRef={form}
      noValidate
    >
      <SelectField label={FIELD_LABELS.source} error={errors.source} value={sourceId} choices={accountChoices(accounts)} onChange={setSourceId} />
      <div class="field-pair">
        <CounterpartyPicker
          label="Counterparty"
          hint="Type 3 or more characters of the name or an IBAN, then choose."
          error={counterparty ? undefined : errors.destination}
          selected={counterparty}
          onPick={pickCounterparty}
        />
        <SelectField
          label={FIELD_LABELS.destination}
          error={counterparty ? errors.destination : undefined}
          value={destinationId}
          disabled={!counterparty}
          none={counterparty ? 'Choose an account' : 'Choose a counterparty first'}
          choices={(counterparty?.accounts ?? []).map((account) => ({
            value: account.id,
            label: account.alias ? `${account.alias} · ${accountLabel(account)}` : accountLabel(account),
          }))}
          onChange={setDestinationId}
        />
      </div>
      <div class="field-pair">
        <Field label={FIELD_LABELS.amount} hint={`In ${currency}, for example ${amountExample(digits, MARKS)}.`} error={errors.amount}>
          {(control) => (
            <div class="input-unit">
              <input {...control} inputMode="decimal" autoComplete="off" value={amount} onInput={(event) => setAmount(event.currentTarget.value)} />
              <span aria-hidden="true">{currency}</span>
            </div>
          )}
        </Field>
        <Field label={FIELD_LABELS.date} hint={`The bank's business date is ${formatCalendarDate(bankToday, LOCALE)}.`} error={errors.date}>
          {(control) => <input {...control} type="date" min={bankToday} value={date} onInput={(event) => setChosenDate(event.currentTarget.value)} />}
        </Field>
      </div>
      <SelectField label={FIELD_LABELS.scheme} error={errors.scheme} value={scheme} choices={SCHEMES} onChange={setScheme} />
      <Field label={FIELD_LABELS.reference} hint={`Up to ${REFERENCE_MAX} characters; SEPA allows a–z, A–Z, 0–9 and / - ? : ( ) . , ' + and space.`} error={errors.reference}>
        {(control) => <input {...control} maxLength={REFERENCE_MAX} autoComplete="off" value={reference} onInput={(event) => setReference(event.currentTarget.value)} />}
      </Field>
    </CreateForm>
  )
}
