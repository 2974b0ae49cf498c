import { useState } from 'preact/hooks'
import { problemOf, type Problem } from '../api/problem'
import { Link } from '../router/link'
import { Field } from '../ui/field'
import { ErrorNotice } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import type { StatementImport } from './account-types'
import { ImportSummary } from './import-summary'
import { useOwnAccounts } from './own-accounts'
import { uploadStatement } from './statement-upload'

/**
 * /accounts/import: a camt.053 statement (or camt.052, camt.054) uploaded as a file. The API matches each
 * statement to an own account by its IBAN, books its entries and records its balances; a file it refuses
 * is refused whole, with the place of each problem, shown here with the request id.
 */
export function ImportStatementPage() {
  const accounts = useOwnAccounts()
  const [file, setFile] = useState<File | undefined>(undefined)
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const [result, setResult] = useState<StatementImport | undefined>(undefined)
  const [missing, setMissing] = useState(false)

  async function submit(event: Event) {
    event.preventDefault()
    setMissing(!file)
    if (!file) return
    setBusy(true)
    setProblem(undefined)
    setResult(undefined)
    try {
      setResult(await uploadStatement(file))
      accounts.reload()
    } catch (error) {
      setProblem(problemOf(error))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <p class="breadcrumb">
        <Link to="/accounts">Accounts</Link>
      </p>
      <PageHeader title="Import statement" />
      <p class="page-intro">
        An ISO 20022 bank statement (camt.053; camt.052 and camt.054 too) of one or more of your accounts, matched by IBAN. Importing the same statement
        again books nothing twice.
      </p>
      <form class="form-card" aria-label="Import statement" noValidate onSubmit={submit}>
        <Field label="Statement file" hint="An XML file, as your bank's online banking exports it." error={missing ? 'Choose the statement file to import.' : undefined}>
          {(control) => <input {...control} type="file" accept=".xml,application/xml,text/xml" onChange={(event) => setFile(event.currentTarget.files?.[0])} />}
        </Field>
        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Importing…' : 'Import'}
          </button>
        </div>
      </form>
      {problem && <ErrorNotice problem={problem} title="The statement was not imported" />}
      {result && <ImportSummary result={result} accounts={accounts.status === 'ready' ? accounts.data : []} />}
    </>
  )
}
