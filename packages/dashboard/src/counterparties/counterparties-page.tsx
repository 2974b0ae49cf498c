import { useEffect, useState } from 'preact/hooks'
import { useListPage, withFilters } from '../api/use-list-page'
import { accountLabel } from '../format/account'
import { Timestamp } from '../format/format'
import { Link } from '../router/link'
import { navigate, useLocation } from '../router/router'
import { DataTable, type Column } from '../ui/data-table'
import { Field } from '../ui/field'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { PagedList } from '../ui/paged-list'
import { PARTY_TYPE_LABEL, type Counterparty } from './types'

/** The API's shortest search (MIN_QUERY_LENGTH in src/payments/counterparties/counterparty.schemas.ts). */
const MIN_SEARCH = 3

const columns: Column<Counterparty>[] = [
  {
    header: 'Legal name',
    rowHeader: true,
    cell: (counterparty) => (
      <>
        <Link to={`/counterparties/${counterparty.id}`} class="primary-text">
          {counterparty.legalName}
        </Link>
        {counterparty.alias && <span class="secondary">{counterparty.alias}</span>}
      </>
    ),
  },
  { header: 'Type', cell: (counterparty) => (counterparty.partyType ? PARTY_TYPE_LABEL[counterparty.partyType] : '—') },
  {
    header: 'Accounts',
    cell: (counterparty) =>
      counterparty.accounts.length === 0 ? (
        <span class="secondary">None</span>
      ) : (
        counterparty.accounts.map((account) => (
          <span key={account.id} class="mono account-line">
            {accountLabel(account)}
          </span>
        ))
      ),
  },
  { header: 'Created', cell: (counterparty) => <Timestamp at={counterparty.created} short /> },
]

/**
 * Counterparties: newest first, searched by legal name, alias or account number (the API's `query`; a
 * pasted IBAN finds its owner), a page at a time — search and page both in the URL.
 */
export function CounterpartiesPage() {
  const location = useLocation()
  const search = location.query.get('query') ?? ''
  const [typed, setTyped] = useState(search)
  // Back and Forward change the search in the URL: the field follows.
  useEffect(() => setTyped(search), [search])
  const tooShort = typed.trim().length > 0 && typed.trim().length < MIN_SEARCH
  const page = useListPage('/payments/v2/counterparties', { query: search ? { query: search } : {} })

  function submit(event: Event) {
    event.preventDefault()
    if (!tooShort) navigate(withFilters(location, { query: typed.trim() }))
  }

  return (
    <>
      <PageHeader title="Counterparties">
        <Link to="/counterparties/new" class="button primary">
          New counterparty
        </Link>
      </PageHeader>
      <form class="filters" role="search" aria-label="Search counterparties" onSubmit={submit}>
        <Field label="Search" error={tooShort ? `Type at least ${MIN_SEARCH} characters.` : undefined}>
          {(control) => (
            <input {...control} type="search" placeholder="Name, alias or IBAN" value={typed} onInput={(event) => setTyped(event.currentTarget.value)} />
          )}
        </Field>
        <div class="button-row">
          <button type="submit" class="button">
            Search
          </button>
          {search && (
            <button type="button" class="button quiet" onClick={() => navigate(withFilters(location, { query: undefined }))}>
              Clear search
            </button>
          )}
        </div>
      </form>
      <PagedList
        page={page}
        what="Loading counterparties…"
        empty={
          <EmptyState title={search ? `No counterparty matches “${search}”` : 'No counterparties yet'}>
            {search
              ? 'Search by legal name, alias or account number, or clear the search.'
              : 'Add the companies and people you pay or collect from with “New counterparty”, with their bank accounts.'}
          </EmptyState>
        }
      >
        {(items) => <DataTable caption="Counterparties" columns={columns} rows={items} rowKey={(counterparty) => counterparty.id} />}
      </PagedList>
    </>
  )
}
