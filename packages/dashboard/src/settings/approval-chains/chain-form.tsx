import { useState } from 'preact/hooks'
import { detailFor, problemOf, type Problem } from '../../api/problem'
import { accountChoice, useOwnAccounts } from '../../accounts/own-accounts'
import { LOCALE } from '../../format/format'
import { amountExample, currencyDigits, numberMarks } from '../../payments/amount-entry'
import { Field } from '../../ui/field'
import { Loading } from '../../ui/notices'
import { WriteProblem } from '../../ui/write-problem'
import type { Role, User } from '../types'
import { readDraft, type AmountField, type ChainBody, type ChainDraft, type DraftProblems, type PaymentType } from './chain-draft'
import { ChoiceList } from './choice-list'
import { StepFields } from './step-fields'

const PAYMENT_TYPES: { id: PaymentType; label: string }[] = [
  { id: 'CREDIT_TRANSFER', label: 'Credit transfers' },
  { id: 'DIRECT_DEBIT', label: 'Direct debits' },
]

const MARKS = numberMarks(LOCALE)

/** The own accounts a chain may apply to only, once they are read. */
function AccountChoices({ chosen, onChange }: { chosen: string[]; onChange: (ids: string[]) => void }) {
  const accounts = useOwnAccounts()
  if (accounts.status === 'loading') return <Loading what="Loading your accounts…" />
  if (accounts.status === 'error') return <p class="field-error">Your accounts could not be read: {accounts.problem.message}</p>
  return (
    <ChoiceList
      legend="Own accounts"
      hint="The account a credit transfer leaves, or a direct debit arrives at."
      options={accounts.data.map((account) => ({ id: account.id, label: accountChoice(account) }))}
      chosen={chosen}
      onChange={onChange}
      wide
    />
  )
}

/**
 * An approval chain's form: its name, the conditions under which it applies to a new payment (payment
 * types, currency and amount range, own accounts, the creator's role) and its steps. Amounts are read
 * as the reader writes them; `submit` sends the chain, and the API's refusal shows at the top and
 * beside the field it names.
 */
export function ChainForm({
  initial,
  roles,
  users,
  submitLabel,
  submit,
  onReload,
}: {
  initial: ChainDraft
  roles: Role[]
  users: User[]
  submitLabel: string
  submit: (body: ChainBody) => Promise<void>
  onReload: () => void
}) {
  const [draft, setDraft] = useState(initial)
  const [mistakes, setMistakes] = useState<DraftProblems>({})
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const set = (change: Partial<ChainDraft>) => setDraft({ ...draft, ...change })
  const apiError = (field: string) => problem?.details.find((detail) => detail.field === field || detail.field.startsWith(`${field}.`))?.error
  const roleOptions = roles.map((role) => ({ id: role.id, label: role.name }))
  const currency = draft.currency.trim().toUpperCase()
  const example = amountExample(/^[A-Z]{3}$/.test(currency) ? currencyDigits(currency) : 2, MARKS)

  function amountField(field: AmountField, label: string) {
    const apiField = field === 'autoApproveBelow' ? field : `trigger.${field}`
    return (
      <Field label={label} hint={`Optional. In ${currency || 'the chain’s currency'}, e.g. ${example}.`} error={mistakes[field] ?? apiError(apiField)}>
        {(control) => (
          <input {...control} inputMode="decimal" class="mono" value={draft.amounts[field]} onInput={(event) => set({ amounts: { ...draft.amounts, [field]: event.currentTarget.value } })} />
        )}
      </Field>
    )
  }

  async function save(event: Event) {
    event.preventDefault()
    setProblem(undefined)
    const read = readDraft(draft, MARKS)
    setMistakes('problems' in read ? read.problems : {})
    if (!('body' in read)) return
    setBusy(true)
    try {
      await submit(read.body)
    } catch (failure) {
      setProblem(problemOf(failure))
      setBusy(false)
    }
  }

  return (
    <form class="form-card form-wide" onSubmit={save} aria-label={submitLabel === 'Create' ? 'New approval chain' : 'Edit approval chain'}>
      {problem && <WriteProblem problem={problem} title="The approval chain was not saved" onReload={onReload} />}
      <Field label="Name" hint="What the chain is for, e.g. “Large payments”." error={detailFor(problem, 'name')?.error}>
        {(control) => <input {...control} required maxLength={100} value={draft.name} onInput={(event) => set({ name: event.currentTarget.value })} />}
      </Field>
      <fieldset class="fieldset">
        <legend>Applies to</legend>
        <p class="field-hint">A new payment must meet every condition given. Nothing ticked or typed: every payment.</p>
        <ChoiceList legend="Payment types" options={PAYMENT_TYPES} chosen={draft.paymentTypes} onChange={(ids) => set({ paymentTypes: ids as PaymentType[] })} />
        <div class="field-pair">
          <Field label="Currency" hint="Needed with amounts: they are not converted." error={mistakes.currency ?? apiError('trigger.currency')}>
            {(control) => (
              <input {...control} class="mono" maxLength={3} placeholder="EUR" value={draft.currency} onInput={(event) => set({ currency: event.currentTarget.value.toUpperCase() })} />
            )}
          </Field>
          {amountField('amountAtLeast', 'Amount at least')}
          {amountField('amountBelow', 'Amount below')}
        </div>
        <AccountChoices chosen={draft.accountIds} onChange={(accountIds) => set({ accountIds })} />
        <ChoiceList legend="Created by holders of these roles" options={roleOptions} chosen={draft.creatorRoleIds} onChange={(creatorRoleIds) => set({ creatorRoleIds })} />
        {(draft.keptAccountsNotIn || draft.keptCreatorRolesNotIn) && (
          <p class="field-hint">This chain also excludes some accounts or creator roles (set through the API); they are kept as they are.</p>
        )}
      </fieldset>
      <label class="check">
        <input type="checkbox" checked={draft.autoApprove} onChange={(event) => set({ autoApprove: event.currentTarget.checked })} />
        Approve matching payments automatically, without steps
      </label>
      {draft.autoApprove ? (
        apiError('steps') && <p class="field-error">{apiError('steps')}</p>
      ) : (
        <>
          <StepFields
            steps={draft.steps}
            onChange={(steps) => set({ steps })}
            roles={roleOptions}
            people={users.map((user) => ({ id: user.id, label: user.name }))}
            problem={problem}
          />
          <div class="field-narrow">{amountField('autoApproveBelow', 'Approve automatically below')}</div>
        </>
      )}
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={busy}>
          {submitLabel}
        </button>
      </div>
    </form>
  )
}
