import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { detailFor, problemOf, type Problem } from '../api/problem'
import { Link } from '../router/link'
import { navigate } from '../router/router'
import { CreateForm } from '../ui/create-form'
import { Field } from '../ui/field'
import { PageHeader } from '../ui/page-header'
import { choicesOf, SelectField } from '../ui/select-field'
import { AccountRows, accountsBody, emptyAccount, type AccountRow } from './account-rows'
import { PARTY_TYPE_LABEL, type PartyType } from './types'

/**
 * "New counterparty": legal name, party type, an optional alias, and one or more IBAN accounts checked
 * as they are typed. The API checks everything again; its refusal shows at the top and beside each field
 * it names. Created, the counterparty's own page opens.
 */
export function NewCounterpartyPage() {
  const [legalName, setLegalName] = useState('')
  const [partyType, setPartyType] = useState<PartyType>('COMPANY')
  const [alias, setAlias] = useState('')
  const [accounts, setAccounts] = useState<AccountRow[]>(() => [emptyAccount()])
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [busy, setBusy] = useState(false)

  async function create(event: Event) {
    event.preventDefault()
    setBusy(true)
    setProblem(undefined)
    try {
      const { data } = await kassa.POST('/payments/v2/counterparties', {
        body: { legalName: legalName.trim(), partyType, ...(alias.trim() ? { alias: alias.trim() } : {}), accounts: accountsBody(accounts) },
      })
      navigate(`/counterparties/${data.id}`)
    } catch (error) {
      setProblem(problemOf(error))
      setBusy(false)
    }
  }

  return (
    <>
      <PageHeader title="New counterparty">
        <Link to="/counterparties" class="button">
          Back to counterparties
        </Link>
      </PageHeader>
      <CreateForm name="New counterparty" refusal="The counterparty was not created" problem={problem} busy={busy} cancelTo="/counterparties" onSubmit={create}>
        <Field label="Legal name" hint="As registered: it goes into every payment to them." error={detailFor(problem, 'legalName')?.error}>
          {(control) => <input {...control} required maxLength={96} value={legalName} onInput={(event) => setLegalName(event.currentTarget.value)} />}
        </Field>
        <div class="field-pair">
          <SelectField
            label="Party type"
            error={detailFor(problem, 'partyType')?.error}
            value={partyType}
            choices={choicesOf(PARTY_TYPE_LABEL)}
            onChange={(value) => setPartyType(value as PartyType)}
          />
          <Field label="Alias" hint="Optional: the name your team knows them by." error={detailFor(problem, 'alias')?.error}>
            {(control) => <input {...control} maxLength={255} value={alias} onInput={(event) => setAlias(event.currentTarget.value)} />}
          </Field>
        </div>
        <AccountRows rows={accounts} onChange={setAccounts} problem={problem} />
      </CreateForm>
    </>
  )
}
