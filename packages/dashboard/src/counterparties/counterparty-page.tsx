import { useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { useLoad } from '../api/use-load'
import { accountLabel } from '../format/account'
import { Timestamp } from '../format/format'
import { Link } from '../router/link'
import { navigate } from '../router/router'
import { ConfirmDialog } from '../ui/confirm-dialog'
import { DataTable } from '../ui/data-table'
import { Loadable } from '../ui/loadable'
import { PageHeader } from '../ui/page-header'
import { DetailsForm } from './details-form'
import { PARTY_TYPE_LABEL, type Counterparty } from './types'

type Account = Counterparty['accounts'][number]

/**
 * One counterparty: what the API holds about it, its accounts, its alias and metadata to edit, and
 * "Delete" behind a confirmation (DELETE with If-Match: the etag this page read).
 */
export function CounterpartyPage({ params }: { params: Record<string, string> }) {
  const id = params.id!
  const loaded = useLoad(async () => (await kassa.GET('/payments/v2/counterparties/{id}', { params: { path: { id } } })).data, [id])
  // A save answers the updated counterparty (new etag): shown without reading it again.
  const [saved, setSaved] = useState<Counterparty | undefined>(undefined)
  const [deleting, setDeleting] = useState(false)
  const reload = () => {
    setSaved(undefined)
    loaded.reload()
  }

  return (
    <Loadable state={loaded} what="Loading the counterparty…">
      {(read) => {
        const counterparty = saved && saved.version > read.version ? saved : read
        return (
          <>
            <PageHeader title={counterparty.legalName}>
              <Link to="/counterparties" class="button">
                All counterparties
              </Link>
              <button type="button" class="button" aria-haspopup="dialog" onClick={() => setDeleting(true)}>
                Delete
              </button>
            </PageHeader>
            <Facts counterparty={counterparty} />
            <section class="section" aria-labelledby="accounts-title">
              <h2 id="accounts-title">Accounts</h2>
              <DataTable
                caption="Accounts"
                rows={counterparty.accounts}
                rowKey={(account) => account.id}
                columns={[
                  { header: 'Account', rowHeader: true, cell: (account: Account) => <span class="mono">{accountLabel(account)}</span> },
                  { header: 'Alias', cell: (account: Account) => account.alias ?? '—' },
                  { header: 'Country', cell: (account: Account) => account.market },
                  { header: 'Account id', cell: (account: Account) => <code class="request-id">{account.id}</code> },
                ]}
              />
            </section>
            <section class="section">
              <DetailsForm key={read.etag} counterparty={counterparty} onSaved={setSaved} onReload={reload} />
            </section>
            {deleting && (
              <ConfirmDialog
                title="Delete counterparty"
                confirm="Delete"
                onClose={() => setDeleting(false)}
                onReload={() => {
                  setDeleting(false)
                  reload()
                }}
                onConfirm={async () => {
                  await kassa.DELETE('/payments/v2/counterparties/{id}', { params: { path: { id }, header: { 'if-match': counterparty.etag } } })
                  navigate('/counterparties')
                }}
              >
                <p>
                  {counterparty.legalName} and {counterparty.accounts.length === 1 ? 'its account' : `its ${counterparty.accounts.length} accounts`} will be
                  deleted; this cannot be undone. Payments already made keep their details.
                </p>
              </ConfirmDialog>
            )}
          </>
        )
      }}
    </Loadable>
  )
}

function Facts({ counterparty }: { counterparty: Counterparty }) {
  return (
    <dl class="facts">
      <div>
        <dt>Party type</dt>
        <dd>{counterparty.partyType ? PARTY_TYPE_LABEL[counterparty.partyType] : '—'}</dd>
      </div>
      <div>
        <dt>Alias</dt>
        <dd>{counterparty.alias ?? '—'}</dd>
      </div>
      {counterparty.email && (
        <div>
          <dt>Email</dt>
          <dd>{counterparty.email}</dd>
        </div>
      )}
      {counterparty.externalId && (
        <div>
          <dt>External id</dt>
          <dd class="mono">{counterparty.externalId}</dd>
        </div>
      )}
      <div>
        <dt>Created</dt>
        <dd>
          <Timestamp at={counterparty.created} />
        </dd>
      </div>
      <div>
        <dt>Updated</dt>
        <dd>
          <Timestamp at={counterparty.updated} />
        </dd>
      </div>
    </dl>
  )
}
