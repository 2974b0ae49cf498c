import { useListPage } from '../api/use-list-page'
import { Timestamp } from '../format/format'
import { Link } from '../router/link'
import { DataTable, type Column } from '../ui/data-table'
import { EmptyState } from '../ui/notices'
import { PageHeader } from '../ui/page-header'
import { PagedList } from '../ui/paged-list'
import { ResourceTags } from './resource-tags'
import type { Webhook } from './types'

const columns: Column<Webhook>[] = [
  {
    header: 'Endpoint',
    rowHeader: true,
    cell: (webhook) => (
      <>
        <Link to={`/webhooks/${webhook.id}`} class="primary-text">
          {webhook.name ?? webhook.url}
        </Link>
        {webhook.name && <span class="secondary mono">{webhook.url}</span>}
      </>
    ),
  },
  { header: 'Events of', cell: (webhook) => <ResourceTags filter={webhook.filter} /> },
  { header: 'Signing keys', align: 'end', cell: (webhook) => webhook.keys.length },
  { header: 'Created', cell: (webhook) => <Timestamp at={webhook.created} short /> },
]

/** Webhooks: the endpoints Kassa sends events to, newest first, a page at a time (page in the URL). */
export function WebhooksPage() {
  const page = useListPage('/v1/webhooks')
  return (
    <>
      <PageHeader title="Webhooks">
        <Link to="/webhooks/new" class="button primary">
          New webhook
        </Link>
      </PageHeader>
      <p class="page-intro">Kassa posts each event of the resources an endpoint subscribes to, signed with its keys, and retries until it answers 2xx.</p>
      <PagedList
        page={page}
        what="Loading webhooks…"
        empty={
          <EmptyState title="No webhooks yet">
            Add an endpoint with “New webhook” to hear about payments, transactions and counterparties as they change, instead of asking.
          </EmptyState>
        }
      >
        {(items) => <DataTable caption="Webhooks" columns={columns} rows={items} rowKey={(webhook) => webhook.id} />}
      </PagedList>
    </>
  )
}
