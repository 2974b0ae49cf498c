import { useEffect, useState } from 'preact/hooks'
import { kassa } from '../api/kassa'
import { problemOf, type Problem } from '../api/problem'
import { useListPage, withFilters } from '../api/use-list-page'
import { Timestamp } from '../format/format'
import { navigate, useLocation } from '../router/router'
import { Badge } from '../ui/badge'
import { DataTable, type Column } from '../ui/data-table'
import { EmptyState, ErrorNotice } from '../ui/notices'
import { PagedList } from '../ui/paged-list'
import { SelectField } from '../ui/select-field'
import { excerptMayBeCut } from './response-excerpt'
import { DELIVERY_STATUS, RESOURCE_LABEL, type Delivery, type DeliveryStatus, type WebhookResource } from './types'

/** How often the log is read again while a delivery is still pending (the worker retries in the background). */
const PENDING_REFRESH_MILLISECONDS = 2_000

/** The attempts shown in full; earlier ones fold away (a day of retries is some thirty attempts). */
const LATEST_ATTEMPTS = 3

type Attempt = Delivery['attempts'][number]

/**
 * The start of the endpoint's answer, folded away until asked for: often the only word on why it refused.
 * It is text from elsewhere, shown as text (Preact escapes it), never as markup.
 */
function AttemptResponse({ excerpt }: { excerpt: string }) {
  return (
    <details class="attempt-response">
      <summary>Response</summary>
      <pre class="mono">{excerpt}</pre>
      {excerptMayBeCut(excerpt) && <p class="secondary">Only the first 1 KiB of an answer is kept: this one may have been longer.</p>}
    </details>
  )
}

/**
 * One attempt: when, the endpoint's HTTP status, how long it took and what it answered. The API's reason is
 * shown where the status does not say it already: no answer at all (a timeout, a refused connection) or a redirect.
 */
function AttemptLine({ attempt }: { attempt: Attempt }) {
  const explains = attempt.error && (attempt.statusCode === undefined || attempt.statusCode < 400)
  return (
    <li>
      <Timestamp at={attempt.attempted} short /> · {attempt.statusCode === undefined ? 'no answer' : `HTTP ${attempt.statusCode}`} ·{' '}
      {attempt.durationMilliseconds} ms
      {explains && <span class="attempt-error">{attempt.error}</span>}
      {attempt.responseExcerpt !== undefined && <AttemptResponse excerpt={attempt.responseExcerpt} />}
    </li>
  )
}

function Attempts({ delivery }: { delivery: Delivery }) {
  if (delivery.attempts.length === 0) return <span class="secondary">Not tried yet</span>
  const earlier = delivery.attempts.slice(0, -LATEST_ATTEMPTS)
  const latest = delivery.attempts.slice(-LATEST_ATTEMPTS)
  return (
    <>
      {earlier.length > 0 && (
        <details class="earlier-attempts">
          <summary>{earlier.length === 1 ? '1 earlier attempt' : `${earlier.length} earlier attempts`}</summary>
          <ol class="attempts">
            {earlier.map((attempt) => (
              <AttemptLine key={attempt.attempted} attempt={attempt} />
            ))}
          </ol>
        </details>
      )}
      <ol class="attempts">
        {latest.map((attempt) => (
          <AttemptLine key={attempt.attempted} attempt={attempt} />
        ))}
      </ol>
    </>
  )
}

/**
 * The webhook's delivery log, newest first: each event sent, its status, and every attempt with the
 * endpoint's HTTP status, the time it took and the start of its answer, or why it failed; "Redeliver"
 * sends one again. Status filter and page are in the URL; while a delivery is pending the log follows
 * the worker on its own.
 */
export function Deliveries({ webhookId, round }: { webhookId: string; round: number }) {
  const location = useLocation()
  const status = (location.query.get('status') ?? '') as DeliveryStatus | ''
  const page = useListPage('/v1/webhooks/{id}/deliveries', { path: { id: webhookId }, query: status ? { status } : {} })
  const [problem, setProblem] = useState<Problem | undefined>(undefined)
  const shown = page.status === 'ready' ? page.data : undefined

  useEffect(() => {
    if (round > 0) page.reload()
  }, [round])
  // Each answer read decides whether to read again: while one delivery is pending, after a pause.
  useEffect(() => {
    if (!shown?.items.some((delivery) => delivery.status === 'PENDING')) return undefined
    const timer = window.setTimeout(page.reload, PENDING_REFRESH_MILLISECONDS)
    return () => window.clearTimeout(timer)
  }, [shown])

  async function redeliver(delivery: Delivery) {
    setProblem(undefined)
    try {
      await kassa.POST('/v1/webhooks/{id}/deliveries/{deliveryId}:redeliver', { params: { path: { id: webhookId, deliveryId: delivery.id } } })
      page.reload()
    } catch (error) {
      setProblem(problemOf(error))
    }
  }

  const columns: Column<Delivery>[] = [
    {
      header: 'Event',
      rowHeader: true,
      cell: (delivery) => (
        <>
          <span class="primary-text">
            {RESOURCE_LABEL[delivery.resource as WebhookResource] ?? delivery.resource}: {delivery.event.name}
          </span>
          <span class="secondary mono">{delivery.entityId}</span>
        </>
      ),
    },
    { header: 'Status', cell: (delivery) => <Badge tone={DELIVERY_STATUS[delivery.status].tone}>{DELIVERY_STATUS[delivery.status].label}</Badge> },
    { header: 'Attempts', cell: (delivery) => <Attempts delivery={delivery} /> },
    {
      header: 'Next attempt',
      cell: (delivery) => (delivery.nextAttempt && delivery.status === 'PENDING' ? <Timestamp at={delivery.nextAttempt} short /> : '—'),
    },
    { header: 'Created', cell: (delivery) => <Timestamp at={delivery.created} short /> },
    {
      header: 'Action',
      cell: (delivery) => (
        <button type="button" class="button" aria-label={`Redeliver ${delivery.event.name} of ${delivery.entityId}`} onClick={() => void redeliver(delivery)}>
          Redeliver
        </button>
      ),
    },
  ]

  return (
    <section class="section" aria-labelledby="deliveries-title">
      <div class="section-header">
        <h2 id="deliveries-title">Deliveries</h2>
        <button type="button" class="button" onClick={page.reload}>
          Refresh
        </button>
      </div>
      <form class="filters" role="search" aria-label="Filter deliveries" onSubmit={(event) => event.preventDefault()}>
        <SelectField
          label="Status"
          value={status}
          none="Any status"
          choices={Object.entries(DELIVERY_STATUS).map(([value, { label }]) => ({ value, label }))}
          onChange={(value) => navigate(withFilters(location, { status: value }))}
        />
      </form>
      {problem && <ErrorNotice problem={problem} title="Not redelivered" />}
      <PagedList
        page={page}
        what="Loading deliveries…"
        empty={
          <EmptyState title={status ? `No ${DELIVERY_STATUS[status].label.toLowerCase()} deliveries` : 'Nothing delivered yet'}>
            {status ? 'Choose another status, or any status.' : 'Events appear here as they happen; “Send test event” sends one now.'}
          </EmptyState>
        }
      >
        {(items) => <DataTable caption="Deliveries" columns={columns} rows={items} rowKey={(delivery) => delivery.id} />}
      </PagedList>
    </section>
  )
}
